-- Second half of replacing versions. $1 = 'user' | 'venue',
-- $2 = JSON list of rows {id, versions (JSON text, e.g. '{"*":"<version>"}')}.
INSERT INTO receiver_field_versions (entity, entity_id, versions)
SELECT $1, r.id::UUID, r.versions::JSON
  FROM (SELECT unnest(from_json($2::JSON, '[{"id":"VARCHAR","versions":"VARCHAR"}]'), recursive := true)) AS r;
