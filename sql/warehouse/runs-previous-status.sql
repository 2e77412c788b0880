-- The status of a job's latest finished run before a given run. $1 = job, $2 = run id.
SELECT status
  FROM sync_runs
 WHERE job = $1 AND run_id < $2 AND status IN ('succeeded', 'partial', 'failed')
 ORDER BY run_id DESC
 LIMIT 1;
