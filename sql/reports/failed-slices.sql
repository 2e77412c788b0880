-- Slices that failed in the most recent run (sync_errors): stream, scope, window and why
--
-- A failed slice left its cursor where it was; the next sync retries it.
WITH last_run AS (
  SELECT run_id, job, status FROM sync_runs ORDER BY run_id DESC LIMIT 1
)
SELECT e.run_id,
       l.job,
       e.stream,
       venue_label(e.scope_id) AS scope,
       e.scope_id,
       e.window_from,
       e.window_to,
       e.error_code,
       e.message,
       e.at
FROM sync_errors e
JOIN last_run l USING (run_id)
ORDER BY e.stream, e.scope_id, e.window_from;
