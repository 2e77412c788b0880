-- Slice keys of a backfill already committed (a resumed backfill skips them). $1 = backfill id.
SELECT slice_key FROM backfill_slices WHERE backfill_id = $1 AND status = 'done';
