-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
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
-- embeds counts events, so hourly rows add up to the day. A value the API sent as null is
-- unknown: a day with such a point has no known total (NULL). The 7-day window looks at the six
-- days before each day too, also when they lie before from_date; days missing from the
-- warehouse and days without a known total count as nothing: embeds_7d adds the known days and
-- avg_7d averages them (`venue-etl check` reports missing days).
WITH daily AS (
  SELECT venue_id, day,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS embeds
  FROM (
    -- Both grains of a day may be loaded (sync.historyGrain): the day's own point wins, its
    -- hours count only for a day loaded by the hour alone (the ENUM orders 'hour' < 'day').
    -- Every filter is on a column the window partitions by, so it applies before the window
    -- (after it, DuckDB partitioned and sorted every point of the warehouse first), and the
    -- range is also a bound on ts itself, which lets the scan skip row groups by their min/max.
    -- Days before from_date - 6 reach no 7-day window shown. The UTC day comes from the epoch
    -- (floor, so days before 1970 stay right): the same day as timezone('UTC', ts)::DATE, cheaper.
    SELECT venue_id, value, granularity, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day
    FROM series_points
    WHERE stream = 'venue-remarketing-history' AND metric = 'embeds'
      AND (getvariable('from_date') IS NULL OR ts >= timezone('UTC', (getvariable('from_date') - 6)::TIMESTAMP))
      AND (getvariable('to_date') IS NULL OR ts < timezone('UTC', (getvariable('to_date') + 1)::TIMESTAMP))
      AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
    QUALIFY granularity = max(granularity) OVER (PARTITION BY venue_id, day)
  ) AS series_points
  GROUP BY venue_id, day
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
