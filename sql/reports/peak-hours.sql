-- Devices and logins per venue by weekday and hour of day, in a time zone, from the hourly rows the warehouse holds
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--   SET VARIABLE time_zone = 'Europe/Madrid';        -- IANA zone of weekday and hour (default UTC)
--
-- Only series rows at hour grain count: a one-day request returns hourly points, longer ones
-- daily points, so most warehouses hold few hourly days or none (then this report is empty).
-- weekday is ISO (1 = Monday … 7 = Sunday) and hour 0–23, both read in time_zone. hours says
-- how many hourly points fell on that weekday and hour, so averages can be taken. A value the
-- API sent as null is unknown: its cell's total is NULL.
WITH points AS (
  SELECT venue_id, stream, metric, value,
         timezone(coalesce(getvariable('time_zone'), 'UTC'), ts) AS local_ts
  FROM series_points
  WHERE granularity = 'hour'
    AND ((stream = 'venue-devices-history' AND metric IN ('detected', 'authenticated'))
      OR (stream = 'venue-users-history' AND metric = 'logins'))
    AND (getvariable('from_date') IS NULL OR timezone('UTC', ts)::DATE >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR timezone('UTC', ts)::DATE <= getvariable('to_date'))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
),
per_metric AS (
  SELECT venue_id, isodow(local_ts) AS weekday, hour(local_ts) AS hour, metric,
         count(*) AS hours,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS total
  FROM points
  GROUP BY ALL
)
SELECT venue_id,
       weekday::INTEGER AS weekday,
       hour::INTEGER AS hour,
       (max(total) FILTER (WHERE metric = 'detected'))::BIGINT AS detected,
       (max(total) FILTER (WHERE metric = 'authenticated'))::BIGINT AS authenticated,
       (max(total) FILTER (WHERE metric = 'logins'))::BIGINT AS logins,
       max(hours)::INTEGER AS hours
FROM per_metric
GROUP BY venue_id, weekday, hour
ORDER BY venue_id, weekday, hour;
