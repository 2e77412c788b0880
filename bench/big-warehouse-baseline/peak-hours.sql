-- Busiest hours: average and share per hour of day and weekday, per venue and for all venues, in a time zone
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE tz        = 'Europe/Berlin';       -- IANA zone of the hours and weekdays (default 'UTC')
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive, in tz
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive, in tz
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Reads the hour grain only (sync.historyGrain "hour"); timestamps stay UTC in the warehouse and
-- are turned into local hours here. The additive counts only: detected, authenticated, logins,
-- embeds, rates-count (unique-* counts are not additive across venues or hours, rates-average is
-- an average). One row per venue ('all' = the venues summed hour by hour), metric, weekday (ISO:
-- 1 = Monday … 7 = Sunday; NULL = every day of the week) and local hour (0-23):
--   hours   — how many such local hours are loaded (a daylight-saving day has 23 or 25);
--   average — their mean value (NULL values, unknown, are left out);
--   share   — the hour's part of its weekday's total (or of the whole week's, for weekday NULL):
--             the shares of one venue, metric and weekday add up to 1.
WITH additive(stream, metric) AS (
  VALUES ('venue-devices-history', 'detected'),
         ('venue-devices-history', 'authenticated'),
         ('venue-users-history', 'logins'),
         ('venue-remarketing-history', 'embeds'),
         ('rating-history', 'rates-count')
),
local_points AS (
  SELECT sp.venue_id::VARCHAR AS venue_id, sp.stream, sp.metric,
         timezone(coalesce(getvariable('tz'), 'UTC'), sp.ts) AS local_ts, sp.value
  FROM series_points sp
  SEMI JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
),
instances AS (
  -- One value per venue and local hour, and the venues' sum ('all'): unknown when any is NULL.
  SELECT CASE WHEN grouping(venue_id) = 1 THEN 'all' ELSE venue_id END AS venue,
         stream, metric, local_ts,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS value
  FROM local_points
  WHERE (getvariable('from_date') IS NULL OR local_ts::DATE >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR local_ts::DATE <= getvariable('to_date'))
  GROUP BY GROUPING SETS ((venue_id, stream, metric, local_ts), (stream, metric, local_ts))
),
slots AS (
  SELECT venue, stream, metric,
         isodow(local_ts) AS weekday_all, hour(local_ts) AS hour,
         count(*) AS hours, avg(value) AS average, sum(value) AS total,
         grouping(isodow(local_ts)) AS every_day
  FROM instances
  GROUP BY GROUPING SETS ((venue, stream, metric, isodow(local_ts), hour(local_ts)), (venue, stream, metric, hour(local_ts)))
)
SELECT venue AS venue_id,
       stream,
       metric,
       CASE WHEN every_day = 1 THEN NULL ELSE weekday_all END::INTEGER AS weekday,
       CASE WHEN every_day = 1 THEN NULL ELSE dayname(DATE '2024-01-07' + weekday_all::INTEGER) END AS weekday_name,
       hour::INTEGER AS hour,
       hours::INTEGER AS hours,
       round(average, 3) AS average,
       round(total / nullif(sum(total) OVER (PARTITION BY venue, stream, metric, every_day, CASE WHEN every_day = 1 THEN NULL ELSE weekday_all END), 0), 4) AS share
FROM slots
ORDER BY venue_id = 'all' DESC, venue_id, stream, metric, weekday NULLS FIRST, hour;
