-- The stored attributes of the given venues. $1 = JSON list of venue ids (UUIDs).
-- created_at in the text form the merge computes from events, so an unchanged value compares equal.
SELECT venue_id::VARCHAR AS id, name, address, city, country,
       strftime(created_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
  FROM venues
 WHERE venue_id IN (SELECT unnest(from_json($1::JSON, '["UUID"]')));
