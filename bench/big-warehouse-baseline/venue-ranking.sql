-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup (the grain rule inlined from series_day_totals of
-- sql/migrations/003_report_macros.sql; before it, the ranking added both grains of a day). Not run by venue-etl.
-- Venues ranked by devices detected over the range, with authenticated devices, logins and embeds
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
-- Every venue with a series row in the range is listed, named by its label
-- (sql/views/venue-labels.sql). Totals add the days of the range (hourly rows add up to their day); a venue with a
-- point the API sent as null has no known total for that metric (NULL), and ranks after the
-- venues whose totals are known. Ties rank by venue id, so the order is stable.
WITH days AS (
  SELECT venue_id, 'detected' AS metric, total FROM (
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
  ) AS raw_days WHERE metric = 'detected'
  UNION ALL
  SELECT venue_id, 'authenticated' AS metric, total FROM (
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
  ) AS raw_days WHERE metric = 'authenticated'
  UNION ALL
  SELECT venue_id, 'logins' AS metric, total FROM (
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
  ) AS raw_days WHERE metric = 'logins'
  UNION ALL
  SELECT venue_id, 'embeds' AS metric, total FROM (
WITH points AS (
  SELECT venue_id, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day, granularity, metric, value
  FROM series_points
  WHERE stream = 'venue-remarketing-history'
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
  ) AS raw_days WHERE metric = 'embeds'
  UNION ALL
  SELECT DISTINCT venue_id, NULL, NULL FROM series_points
  WHERE (getvariable('from_date') IS NULL OR ts >= timezone('UTC', getvariable('from_date')::TIMESTAMP))
    AND (getvariable('to_date') IS NULL OR ts < timezone('UTC', (getvariable('to_date') + 1)::TIMESTAMP))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
),
per_metric AS (
  SELECT venue_id, metric, CASE WHEN count(total) = count(*) THEN sum(total) END AS total
  FROM days
  GROUP BY venue_id, metric
),
totals AS (
  SELECT venue_id,
         max(total) FILTER (WHERE metric = 'detected') AS detected,
         max(total) FILTER (WHERE metric = 'authenticated') AS authenticated,
         max(total) FILTER (WHERE metric = 'logins') AS logins,
         max(total) FILTER (WHERE metric = 'embeds') AS embeds
  FROM per_metric
  GROUP BY venue_id
)
SELECT row_number() OVER (ORDER BY t.detected DESC NULLS LAST, t.venue_id) AS rank,
       venue_label(t.venue_id) AS venue,
       t.venue_id,
       t.detected::BIGINT AS detected,
       t.authenticated::BIGINT AS authenticated,
       round(t.authenticated / nullif(t.detected, 0), 4) AS authenticated_share,
       t.logins::BIGINT AS logins,
       t.embeds::BIGINT AS embeds
FROM totals t
ORDER BY rank;
