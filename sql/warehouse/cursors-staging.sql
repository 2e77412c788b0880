-- The cursors a commit moves, appended by the loader (temp: private to the connection).
CREATE OR REPLACE TEMP TABLE stage_cursor_moves (stream VARCHAR, scope_id VARCHAR, cursor_date DATE);
