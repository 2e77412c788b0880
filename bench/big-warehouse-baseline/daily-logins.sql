-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup (the grain rule inlined from series_day_totals of
-- sql/migrations/003_report_macros.sql). Not run by venue-etl.
-- Logins and unique logins per venue and day (venue-users-history)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Parquet months read: series_points from from_date to to_date
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts).
--
-- Hourly rows of logins add up to the day. unique-logins counts distinct users and is NOT
-- additive across hours: it is shown only for days the API sent at day grain, NULL otherwise.
-- A value the API sent as null is unknown, not 0: a day with such a point has no known total
-- for that metric (NULL), rather than the sum of the hours that were sent.
WITH per_metric AS (
  SELECT * FROM (
WITH points AS (
  SELECT venue_id, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day, granularity, metric, value
  FROM series_points
  WHERE stream = 'venue-users-history'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
)
SELECT venue_id, day, metric,
       bool_or(granularity = 'day') AS day_grain,
       CASE WHEN bool_or(granularity = 'day')
            THEN CASE WHEN count(value) FILTER (WHERE granularity = 'day') = count(*) FILTER (WHERE granularity = 'day')
                      THEN sum(value) FILTER (WHERE granularity = 'day') END
            ELSE CASE WHEN count(value) = count(*) THEN sum(value) END
       END AS total
FROM points
WHERE (getvariable('from_date') IS NULL OR day >= getvariable('from_date'))
  AND (getvariable('to_date') IS NULL OR day <= getvariable('to_date'))
GROUP BY venue_id, day, metric
) AS raw_days
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       day,
       (max(total) FILTER (WHERE metric = 'logins'))::BIGINT AS logins,
       CASE WHEN bool_and(day_grain)
            THEN (max(total) FILTER (WHERE metric = 'unique-logins'))::BIGINT END AS unique_logins,
       CASE WHEN bool_and(day_grain) THEN 'day' ELSE 'hour' END AS loaded_grain
FROM per_metric
GROUP BY venue_id, day
ORDER BY venue_id, day;
