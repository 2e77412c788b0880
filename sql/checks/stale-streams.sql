-- Stale cursors: a stream and scope whose data ends more days before yesterday than its freshness target
--
-- Parameters, as DuckDB variables:
--   SET VARIABLE stale_after_days = 2;               -- sync.staleAfterDays (default 2)
--   SET VARIABLE stale_targets = MAP {'venue-roles': 7}::MAP(VARCHAR, INTEGER);  -- freshness.streams (optional)
--   SET VARIABLE expected_streams = ['accounts'];    -- streams that should have cursors (optional)
--
-- A cursor is the last day whose data is complete (UTC). Streams listed in expected_streams
-- without any cursor are reported with scope_id NULL ("never loaded"). Empty result = pass.
WITH yesterday AS (
  SELECT timezone('UTC', now())::DATE - 1 AS day
),
stale AS (
  SELECT c.stream, c.scope_id, c.cursor_date, (y.day - c.cursor_date)::INTEGER AS days_behind, c.run_id
  FROM sync_cursors c CROSS JOIN yesterday y
  WHERE c.cursor_date < y.day - coalesce(map_extract_value(getvariable('stale_targets'), c.stream), getvariable('stale_after_days'), 2)
),
never_loaded AS (
  SELECT e.stream, NULL::VARCHAR AS scope_id, NULL::DATE AS cursor_date, NULL::INTEGER AS days_behind, NULL::VARCHAR AS run_id
  FROM unnest(coalesce(getvariable('expected_streams'), []::VARCHAR[])) AS e(stream)
  -- NOT EXISTS, not NOT IN: one NULL in the subquery would make NOT IN drop every row.
  WHERE NOT EXISTS (SELECT 1 FROM sync_cursors c WHERE c.stream = e.stream)
)
SELECT * FROM stale
UNION ALL
SELECT * FROM never_loaded
ORDER BY days_behind DESC NULLS FIRST, stream, scope_id;
