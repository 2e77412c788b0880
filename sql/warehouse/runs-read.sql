-- The latest runs, newest first. $1 = how many.
SELECT run_id, job, strftime(started_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS started_at,
       strftime(finished_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS finished_at, status,
       requests::DOUBLE AS requests, retries::DOUBLE AS retries, rows_written::DOUBLE AS rows_written,
       errors::DOUBLE AS errors, detail::VARCHAR AS detail
  FROM sync_runs
 ORDER BY run_id DESC
 LIMIT $1;
