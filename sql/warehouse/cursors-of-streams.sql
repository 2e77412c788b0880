-- Only what the cursor rules need, for the streams of a commit. $1 = JSON list of streams.
-- Formatting updated_at (ICU time zones) for every cursor of the stream cost more than the
-- move itself on groups of a thousand small slices.
SELECT stream, scope_id, cursor_date::VARCHAR AS cursor_date
  FROM sync_cursors
 WHERE stream IN (SELECT unnest($1::JSON::VARCHAR[]));
