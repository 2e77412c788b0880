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
WITH points AS (
  SELECT venue_id, stream, metric, value
  FROM series_points
  -- The UTC days of the range as bounds on ts itself: the scan skips row groups by their min/max
  -- and converts nothing (timezone('UTC', ts)::DATE on every point was most of the report's time).
  WHERE (getvariable('from_date') IS NULL OR ts >= timezone('UTC', getvariable('from_date')::TIMESTAMP))
    AND (getvariable('to_date') IS NULL OR ts < timezone('UTC', (getvariable('to_date') + 1)::TIMESTAMP))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
),
per_metric AS (
  SELECT venue_id, stream, metric, CASE WHEN count(value) = count(*) THEN sum(value) END AS total
  FROM points
  GROUP BY ALL
),
totals AS (
  SELECT venue_id,
         max(total) FILTER (WHERE stream = 'venue-devices-history' AND metric = 'detected') AS detected,
         max(total) FILTER (WHERE stream = 'venue-devices-history' AND metric = 'authenticated') AS authenticated,
         max(total) FILTER (WHERE stream = 'venue-users-history' AND metric = 'logins') AS logins,
         max(total) FILTER (WHERE stream = 'venue-remarketing-history' AND metric = 'embeds') AS embeds
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
