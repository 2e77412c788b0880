-- The 20 most recent runs of every job: status, timing, requests, retries, rows and errors
--
-- Run ids sort by start time. A run still 'running' whose process died is marked failed by
-- the next writer that opens the warehouse.
SELECT run_id,
       job,
       status,
       started_at,
       finished_at,
       round(epoch(coalesce(finished_at, now()) - started_at), 1) AS seconds,
       requests,
       retries,
       rows_written AS rows,
       errors
FROM sync_runs
ORDER BY run_id DESC
LIMIT 20;
