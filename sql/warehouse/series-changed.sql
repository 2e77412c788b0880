-- The series windows of a round whose rows changed (see series-changed-windows.sql).
SELECT w, staged_rows::INTEGER AS staged_rows FROM changed_series_windows;
