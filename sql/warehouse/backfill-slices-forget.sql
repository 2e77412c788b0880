-- Forgets a backfill's progress (a forced re-run): every slice is to be done again.
-- $1 = backfill id. Followed by backfill-restart.sql in the same transaction.
DELETE FROM backfill_slices WHERE backfill_id = $1;
