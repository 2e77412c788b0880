-- Records a run that failed before its first slice (the access check, a held lock, the API
-- unreachable), finished at once. $1 = run id, $2 = job, $3 = started at, $4 = finished at
-- (ISO 8601 timestamps), $5 = detail (JSON object). A run id already recorded is left alone.
INSERT INTO sync_runs (run_id, job, started_at, finished_at, status, errors, detail)
VALUES ($1, $2, $3::TIMESTAMPTZ, $4::TIMESTAMPTZ, 'failed', 1, $5::JSON)
ON CONFLICT DO NOTHING;
