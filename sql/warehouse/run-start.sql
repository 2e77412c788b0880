-- Records a run as running. $1 = run id, $2 = job, $3 = detail (JSON object).
INSERT INTO sync_runs (run_id, job, started_at, status, detail) VALUES ($1, $2, now(), 'running', $3::JSON);
