-- Logins and unique logins per venue and day (venue-users-history)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Hourly rows of logins add up to the day. unique-logins counts distinct users and is NOT
-- additive across hours: it is shown only for days the API sent at day grain, NULL otherwise.
-- A value the API sent as null is unknown, not 0: a day with such a point has no known total
-- for that metric (NULL), rather than the sum of the hours that were sent.
WITH points AS (
  SELECT venue_id, date_trunc('day', timezone('UTC', ts))::DATE AS day, granularity, metric, value
  FROM series_points
  WHERE stream = 'venue-users-history'
    AND (getvariable('from_date') IS NULL OR timezone('UTC', ts)::DATE >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR timezone('UTC', ts)::DATE <= getvariable('to_date'))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
    -- Both grains of a day may be loaded (sync.historyGrain): the day's own point wins, its
    -- hours are used only for a day loaded by the hour alone (the ENUM orders 'hour' < 'day').
  QUALIFY granularity = max(granularity) OVER (PARTITION BY venue_id, day, metric)
),
per_metric AS (
  -- sum() skips NULLs: a total over a day with an unknown point is itself unknown.
  SELECT venue_id, day, metric,
         bool_and(granularity = 'day') AS day_grain,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS total
  FROM points
  GROUP BY venue_id, day, metric
)
SELECT venue_id,
       day,
       (max(total) FILTER (WHERE metric = 'logins'))::BIGINT AS logins,
       CASE WHEN bool_and(day_grain)
            THEN (max(total) FILTER (WHERE metric = 'unique-logins'))::BIGINT END AS unique_logins,
       CASE WHEN bool_and(day_grain) THEN 'day' ELSE 'hour' END AS loaded_grain
FROM per_metric
GROUP BY venue_id, day
ORDER BY venue_id, day;
