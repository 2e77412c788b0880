-- Drops the held answer of one scope. $1 = kind ('venue' | 'project'), $2 = scope id.
DELETE FROM role_snapshot_holds WHERE kind = $1 AND scope_id = $2::UUID;
