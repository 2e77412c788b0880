-- Remarketing embeds per venue and day with the trailing 7-day total and average (venue-remarketing-history)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day shown, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day shown, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Parquet months read: series_points from from_date - 6 days to to_date
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts); the 7-day window of from_date reaches 6 days back.
--
-- embeds counts events, so hourly rows add up to the day; a day held by both grains counts its
-- day point. A value the API sent as null is unknown: a day with such a point has no known total
-- (NULL). The 7-day window looks at the six
-- days before each day too, also when they lie before from_date; days missing from the
-- warehouse and days without a known total count as nothing: embeds_7d adds the known days and
-- avg_7d averages them (`venue-etl check` reports missing days).
WITH daily AS (
  -- Each day's total by the grain rule (series_day_totals, sql/rollups/series-day-totals.sql).
  -- Days before from_date - 6 reach no 7-day window shown.
  SELECT venue_id, day, total AS embeds
  FROM series_day_totals('venue-remarketing-history', getvariable('from_date') - 6, getvariable('to_date'), getvariable('venue_ids'))
  WHERE metric = 'embeds'
),
trend AS (
  SELECT venue_id, day, embeds,
         sum(embeds) OVER last_7_days AS embeds_7d,
         count(embeds) OVER last_7_days AS days_in_7d
  FROM daily
  WINDOW last_7_days AS (PARTITION BY venue_id ORDER BY day RANGE BETWEEN INTERVAL 6 DAYS PRECEDING AND CURRENT ROW)
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       day,
       embeds::BIGINT AS embeds,
       embeds_7d::BIGINT AS embeds_7d,
       round(embeds_7d / nullif(days_in_7d, 0), 2) AS avg_7d
FROM trend
WHERE getvariable('from_date') IS NULL OR day >= getvariable('from_date')
ORDER BY venue_id, day;
