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
-- (sql/views/venue-labels.sql). Totals add the days of the range, each day's total by the grain
-- rule (series_day_totals, sql/rollups/series-day-totals.sql: a day held by the day counts its
-- own point, a day held by the hour alone its hours), so a warehouse holding both grains of a day
-- counts it once. A venue with a day whose total is unknown (a point the API sent as null) has
-- no known total for that metric (NULL), and ranks after the venues whose totals are known. Ties
-- rank by venue id, so the order is stable.
WITH days AS (
  SELECT venue_id, 'detected' AS metric, total FROM series_day_totals('venue-devices-history', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids')) WHERE metric = 'detected'
  UNION ALL
  SELECT venue_id, 'authenticated', total FROM series_day_totals('venue-devices-history', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids')) WHERE metric = 'authenticated'
  UNION ALL
  SELECT venue_id, 'logins', total FROM series_day_totals('venue-users-history', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids')) WHERE metric = 'logins'
  UNION ALL
  SELECT venue_id, 'embeds', total FROM series_day_totals('venue-remarketing-history', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids')) WHERE metric = 'embeds'
  UNION ALL
  -- A venue with series rows in the range but none of the four metrics is still listed.
  SELECT DISTINCT venue_id, NULL, NULL FROM series_daily
  WHERE (getvariable('from_date') IS NULL OR day >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR day <= getvariable('to_date'))
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
