-- Records a backfill. $1 = backfill id, $2 = command, $3 = parameters (canonical JSON).
INSERT INTO backfills (backfill_id, command, params, created_at, status) VALUES ($1, $2, $3::JSON, now(), 'running');
