-- Writes the merged attributes of venues (every column: the merge decided each one).
-- $1 = JSON list of rows {id, name, address, city, country, created_at (ISO text ending in Z)}.
INSERT OR REPLACE INTO venues (venue_id, name, address, city, country, created_at, updated_at)
SELECT r.id::UUID, r.name, r.address, r.city, r.country, r.created_at::TIMESTAMPTZ, now()
  FROM (SELECT unnest(from_json($1::JSON,
         '[{"id":"VARCHAR","name":"VARCHAR","address":"VARCHAR","city":"VARCHAR","country":"VARCHAR","created_at":"VARCHAR"}]'),
         recursive := true)) AS r;
