-- The per-column versions of users or venues. $1 = 'user' | 'venue', $2 = JSON list of ids.
SELECT entity_id::VARCHAR AS id, versions::VARCHAR AS versions
  FROM receiver_field_versions
 WHERE entity = $1 AND entity_id IN (SELECT unnest(from_json($2::JSON, '["UUID"]')));
