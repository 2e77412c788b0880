-- Per stream and day: how many venues have data, how many the stream covers, and whether the day is loaded, missing or failed
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC); default the first day held
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC); default the last day held
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- A stream covers the venues that have any row of it in the warehouse. A day is 'loaded' when
-- every one of them has a row for it (a series point that day, or a summary period containing
-- it), 'failed' when some lack it and a slice of the stream whose window holds the day failed
-- in the most recent run (failed-slices.sql), 'missing' otherwise. Snapshot streams (roles,
-- accounts) have no days and are not listed: freshness.sql covers them.
-- A series' days come from the daily rollup (series_daily: a row per venue, stream, metric and UTC
-- day holding a point), not from the points. Day periods need no expansion; only longer periods
-- (months) are expanded to their days. A venue and day may appear more than once in venue_days
-- (several metrics, a day period inside a month period): the counts count distinct venues per
-- stream and day, which costs a tenth of removing the duplicate rows first (1,000 venues x 1
-- year: 27 ms against 300 ms for the series' 3.3M rollup rows). NOT MATERIALIZED: each use scans
-- the tables again, cheaper than writing ~7M rows once and grouping them from there (1.0 s).
WITH series_days AS NOT MATERIALIZED (
  SELECT stream, venue_id, day
  FROM series_daily
  WHERE getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR)
),
summary_days AS NOT MATERIALIZED (
  SELECT stream, venue_id, period_start AS day
  FROM summary_values
  WHERE period_end = period_start
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
  UNION ALL
  SELECT stream, venue_id, day::DATE
  FROM (SELECT stream, venue_id, unnest(generate_series(period_start::TIMESTAMP, period_end::TIMESTAMP, INTERVAL 1 DAY)) AS day
        -- One row per month period: a summary has ~4-28 metrics per period.
        FROM (SELECT DISTINCT stream, venue_id, period_start, period_end
              FROM summary_values
              WHERE period_end <> period_start
                AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))))
),
venue_days AS NOT MATERIALIZED (
  SELECT * FROM series_days UNION ALL SELECT * FROM summary_days
),
bounds AS (
  SELECT coalesce(getvariable('from_date'), min(day)) AS first_day,
         coalesce(getvariable('to_date'), max(day)) AS last_day
  FROM venue_days
),
streams AS (
  -- Distinct pairs first: count(DISTINCT) over a handful of groups runs on one thread (0.5 s).
  SELECT stream, count(*) AS venues FROM (SELECT DISTINCT stream, venue_id FROM venue_days) GROUP BY stream
),
days AS (
  SELECT range::DATE AS day
  FROM bounds, range(bounds.first_day::TIMESTAMP, bounds.last_day::TIMESTAMP + INTERVAL 1 DAY, INTERVAL 1 DAY)
),
-- Counted per table: a stream is a series or a summary stream, never both (src/catalogue), and
-- grouping each table's days on its own is cheaper than grouping their union (0.4 s -> 0.1 s).
loaded AS (
  SELECT stream, day, count(DISTINCT venue_id) AS venues_loaded
  FROM series_days
  WHERE (getvariable('from_date') IS NULL OR day >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR day <= getvariable('to_date'))
  GROUP BY stream, day
  UNION ALL
  SELECT stream, day, count(DISTINCT venue_id) AS venues_loaded
  FROM summary_days
  WHERE (getvariable('from_date') IS NULL OR day >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR day <= getvariable('to_date'))
  GROUP BY stream, day
),
last_run AS (
  SELECT run_id FROM sync_runs ORDER BY run_id DESC LIMIT 1
),
failed AS (
  SELECT e.stream, d.day, count(*) AS failed_slices
  FROM sync_errors e
  JOIN last_run USING (run_id)
  JOIN days d ON d.day BETWEEN e.window_from AND e.window_to
  WHERE getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), e.scope_id)
  GROUP BY e.stream, d.day
)
SELECT s.stream,
       d.day,
       coalesce(l.venues_loaded, 0) AS venues_loaded,
       s.venues,
       coalesce(f.failed_slices, 0) AS failed_slices,
       CASE WHEN coalesce(l.venues_loaded, 0) >= s.venues THEN 'loaded'
            WHEN f.failed_slices > 0 THEN 'failed'
            ELSE 'missing' END AS status
FROM streams s
CROSS JOIN days d
LEFT JOIN loaded l ON l.stream = s.stream AND l.day = d.day
LEFT JOIN failed f ON f.stream = s.stream AND f.day = d.day
ORDER BY s.stream, d.day;
