-- Marks a run left running by a dead process as failed. $1 = run id, $2 = why (JSON object,
-- merged into detail; the old pid stays there).
UPDATE sync_runs SET status = 'failed', finished_at = now(),
       detail = json_merge_patch(coalesce(detail, '{}'::JSON), $2::JSON)
 WHERE run_id = $1;
