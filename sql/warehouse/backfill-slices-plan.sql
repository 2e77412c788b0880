-- Records the staged slices as pending; slices already known keep their state.
INSERT INTO backfill_slices (backfill_id, slice_key, stream, scope_id, window_from, window_to, status, rows_written, done_at)
SELECT DISTINCT ON (backfill_id, slice_key) backfill_id, slice_key, stream, scope_id, window_from, window_to, 'pending', NULL, NULL
  FROM stage_backfill_slices
ON CONFLICT DO NOTHING;
