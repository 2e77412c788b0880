-- Records the end of a run. $1 = run id, $2 = status, $3 = requests, $4 = retries,
-- $5 = rows written, $6 = errors, $7 = detail merged into the stored one (JSON object).
UPDATE sync_runs SET finished_at = now(), status = $2, requests = $3, retries = $4, rows_written = $5,
       errors = $6, detail = json_merge_patch(coalesce(detail, '{}'::JSON), $7::JSON)
 WHERE run_id = $1;
