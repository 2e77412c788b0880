-- Marks a backfill running again after its progress was forgotten. $1 = backfill id.
UPDATE backfills SET status = 'running', finished_at = NULL WHERE backfill_id = $1;
