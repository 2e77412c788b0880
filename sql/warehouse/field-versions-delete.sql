-- First half of replacing versions: the table has no key (see 002_receiver.sql), so replace
-- = delete, then insert (field-versions-insert.sql). $1 = 'user' | 'venue', $2 = JSON list of ids.
DELETE FROM receiver_field_versions
 WHERE entity = $1 AND entity_id IN (SELECT unnest(from_json($2::JSON, '["UUID"]')));
