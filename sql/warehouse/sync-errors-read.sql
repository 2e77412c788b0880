-- Failed slices, of one run or (NULL) all, oldest first. $1 = run id, or NULL.
SELECT run_id, stream, scope_id, strftime(window_from, '%Y-%m-%d') AS window_from,
       strftime(window_to, '%Y-%m-%d') AS window_to, error_code, message,
       strftime("at" AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS "at"
  FROM sync_errors
 WHERE $1::VARCHAR IS NULL OR run_id = $1::VARCHAR
 ORDER BY "at", run_id;
