-- Runs recorded as running (those this process did not start are abandoned).
SELECT run_id FROM sync_runs WHERE status = 'running';
