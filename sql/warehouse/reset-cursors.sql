-- `venue-etl reset`: without a from date the cursors are forgotten (the next sync starts at
-- sync.startDate); with one they move back to the day before it, never forward.
-- $1 = streams, comma-separated; $2 = venue/project ids, comma-separated, or NULL for all;
-- $3 = from DATE or NULL; $4 = run id recorded as the cursor's last writer.
UPDATE sync_cursors
   SET cursor_date = $3::DATE - 1, updated_at = now(), run_id = $4::VARCHAR
 WHERE $3::DATE IS NOT NULL
   AND list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), lower(scope_id)))
   AND cursor_date >= $3::DATE;
