-- The summary windows of a round whose rows changed (see summary-changed-windows.sql).
SELECT w, staged_rows::INTEGER AS staged_rows FROM changed_summary_windows;
