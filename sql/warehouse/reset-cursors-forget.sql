-- `venue-etl reset` without a from date: the cursors are forgotten, the next sync starts at
-- sync.startDate. $1 = streams, comma-separated; $2 = venue/project ids, comma-separated, or
-- NULL for all.
DELETE FROM sync_cursors
 WHERE list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), lower(scope_id)));
