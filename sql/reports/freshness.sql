-- Per stream: how far its cursors reached, when a run last moved them, and whether the stream is stale
--
-- Parameters, as DuckDB variables:
--   SET VARIABLE stale_after_days = 2;               -- sync.staleAfterDays (default 2)
--   SET VARIABLE stale_targets = MAP {'venue-roles': 7}::MAP(VARCHAR, INTEGER);  -- freshness.streams (optional)
--
-- A cursor is the last day whose data is complete for one scope (venue, project, 'accounts').
-- A stream is as fresh as its stalest scope: days_behind counts the days from its oldest
-- cursor to yesterday (UTC; snapshot streams such as accounts are current to today, 0 behind),
-- and the stream is stale beyond its target: its freshness.streams entry, else stale_after_days;
-- stalest_scope names the scope holding it back (a venue's label: sql/views/venue-labels.sql;
-- the first id of the stalest, if several). The run named is the one that last moved a
-- cursor of the stream: its last successful load.
WITH yesterday AS (
  SELECT timezone('UTC', now())::DATE - 1 AS day
),
per_stream AS (
  SELECT stream,
         count(*) AS scopes,
         min(cursor_date) AS oldest_cursor,
         min_by(scope_id, (cursor_date, scope_id)) AS stalest_scope_id,
         max(cursor_date) AS newest_cursor,
         max(updated_at) AS last_moved_at,
         arg_max(run_id, updated_at) AS last_run_id
  FROM sync_cursors
  GROUP BY stream
)
SELECT s.stream,
       s.scopes,
       s.oldest_cursor,
       venue_label(s.stalest_scope_id) AS stalest_scope,
       s.newest_cursor,
       greatest(y.day - s.oldest_cursor, 0)::INTEGER AS days_behind,
       s.last_moved_at,
       s.last_run_id,
       r.status AS last_run_status,
       round(epoch(now() - s.last_moved_at) / 3600, 1) AS hours_since_load,
       coalesce(map_extract_value(getvariable('stale_targets'), s.stream), getvariable('stale_after_days'), 2)::INTEGER AS max_days_behind,
       (y.day - s.oldest_cursor) > coalesce(map_extract_value(getvariable('stale_targets'), s.stream), getvariable('stale_after_days'), 2) AS stale
FROM per_stream s
CROSS JOIN yesterday y
LEFT JOIN sync_runs r ON r.run_id = s.last_run_id
ORDER BY s.stream;
