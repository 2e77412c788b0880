-- Cursors for `status` and planning, of one stream or (NULL) all. $1 = stream, or NULL.
SELECT stream, scope_id, strftime(cursor_date, '%Y-%m-%d') AS cursor_date,
       strftime(updated_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at, run_id
  FROM sync_cursors
 WHERE $1::VARCHAR IS NULL OR stream = $1::VARCHAR
 ORDER BY stream, scope_id;
