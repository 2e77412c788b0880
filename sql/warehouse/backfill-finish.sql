-- Marks a backfill finished. $1 = backfill id.
UPDATE backfills SET status = 'finished', finished_at = now() WHERE backfill_id = $1;
