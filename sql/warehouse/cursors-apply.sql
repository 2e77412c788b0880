-- Writes the staged cursor moves in one statement. $1 = run id.
INSERT OR REPLACE INTO sync_cursors (stream, scope_id, cursor_date, updated_at, run_id)
SELECT stream, scope_id, cursor_date, now(), $1 FROM stage_cursor_moves;
