-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup (the grain rule inlined from series_day_totals of
-- sql/migrations/003_report_macros.sql). Not run by venue-etl.
-- Detected vs authenticated devices per venue and day (venue-devices-history)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit), e.g. in the DuckDB CLI:
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Parquet months read: series_points from from_date to to_date
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts).
--
-- Series hold the granularity the API sent: 'hour' or 'day' rows. Days are UTC days
-- (timezone('UTC', ts), whatever the session's TimeZone). detected and authenticated count
-- events, so hourly rows add up to the day. unique-detected and unique-authenticated count
-- distinct devices and are NOT additive across hours (a device seen at 09:00 and 10:00 is one
-- device that day): they are shown only for days the API sent at day grain, NULL otherwise.
-- A value the API sent as null is unknown, not 0: a day with such a point has no known total
-- for that metric (NULL), rather than the sum of the hours that were sent.
WITH per_metric AS (
  SELECT * FROM (
WITH points AS (
  SELECT venue_id, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day, granularity, metric, value
  FROM series_points
  WHERE stream = 'venue-devices-history'
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
),
daily AS (
  SELECT venue_id, day,
         bool_and(day_grain) AS day_grain,
         max(total) FILTER (WHERE metric = 'detected') AS detected,
         max(total) FILTER (WHERE metric = 'authenticated') AS authenticated,
         max(total) FILTER (WHERE metric = 'unique-detected') AS unique_detected,
         max(total) FILTER (WHERE metric = 'unique-authenticated') AS unique_authenticated
  FROM per_metric
  GROUP BY venue_id, day
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       day,
       detected::BIGINT AS detected,
       authenticated::BIGINT AS authenticated,
       round(authenticated / nullif(detected, 0), 4) AS authenticated_share,
       CASE WHEN day_grain THEN unique_detected::BIGINT END AS unique_detected,
       CASE WHEN day_grain THEN unique_authenticated::BIGINT END AS unique_authenticated,
       CASE WHEN day_grain THEN 'day' ELSE 'hour' END AS loaded_grain
FROM daily
ORDER BY venue_id, day;
