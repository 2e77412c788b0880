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
  SELECT * FROM series_day_totals('venue-users-history', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
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
