-- The status of a backfill (no row: not recorded yet). $1 = backfill id.
SELECT status FROM backfills WHERE backfill_id = $1;
