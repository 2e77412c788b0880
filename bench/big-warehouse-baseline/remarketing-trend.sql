-- Remarketing embeds per venue and day with the trailing 7-day total and average (venue-remarketing-history)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day shown, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day shown, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- embeds counts events, so hourly rows add up to the day. A value the API sent as null is
-- unknown: a day with such a point has no known total (NULL). The 7-day window looks at the six
-- days before each day too, also when they lie before from_date; days missing from the
-- warehouse and days without a known total count as nothing: embeds_7d adds the known days and
-- avg_7d averages them (`venue-etl check` reports missing days).
WITH daily AS (
  SELECT venue_id, date_trunc('day', timezone('UTC', ts))::DATE AS day,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS embeds
  FROM (
    -- Both grains of a day may be loaded (sync.historyGrain): the day's own point wins, its
    -- hours count only for a day loaded by the hour alone (the ENUM orders 'hour' < 'day').
    SELECT * FROM series_points
    QUALIFY granularity = max(granularity) OVER (PARTITION BY venue_id, stream, metric, timezone('UTC', ts)::DATE)
  ) AS series_points
  WHERE stream = 'venue-remarketing-history' AND metric = 'embeds'
    AND (getvariable('to_date') IS NULL OR timezone('UTC', ts)::DATE <= getvariable('to_date'))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
  GROUP BY ALL
),
trend AS (
  SELECT venue_id, day, embeds,
         sum(embeds) OVER last_7_days AS embeds_7d,
         count(embeds) OVER last_7_days AS days_in_7d
  FROM daily
  WINDOW last_7_days AS (PARTITION BY venue_id ORDER BY day RANGE BETWEEN INTERVAL 6 DAYS PRECEDING AND CURRENT ROW)
)
SELECT venue_id,
       day,
       embeds::BIGINT AS embeds,
       embeds_7d::BIGINT AS embeds_7d,
       round(embeds_7d / nullif(days_in_7d, 0), 2) AS avg_7d
FROM trend
WHERE getvariable('from_date') IS NULL OR day >= getvariable('from_date')
ORDER BY venue_id, day;
