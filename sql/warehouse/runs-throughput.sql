-- The latest run that made enough requests to tell the API's throughput (backfill estimates).
SELECT run_id, requests, epoch_ms(finished_at) - epoch_ms(started_at) AS ms
  FROM sync_runs
 WHERE status IN ('succeeded', 'partial') AND requests >= 20 AND finished_at IS NOT NULL
 ORDER BY started_at DESC
 LIMIT 1;
