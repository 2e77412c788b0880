-- Marks the staged slices done, in the transaction that commits their rows.
INSERT INTO backfill_slices (backfill_id, slice_key, stream, scope_id, window_from, window_to, status, rows_written, done_at)
SELECT backfill_id, slice_key, stream, scope_id, window_from, window_to, 'done', rows_written, now()
  FROM stage_backfill_slices
ON CONFLICT (backfill_id, slice_key) DO UPDATE SET status = 'done', rows_written = excluded.rows_written, done_at = excluded.done_at;
