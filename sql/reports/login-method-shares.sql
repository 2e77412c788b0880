-- Logins per login method and venue with each method's share (venue-users-login-methods)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- periods starting on or after this day
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- periods starting on or before this day
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Summary periods are days (period_end = period_start) or months. When both grains were loaded
-- for the same days, the day rows count and the months they fall in are skipped, so nothing is
-- counted twice. Periods are picked by their first day. A value the API sent as null is
-- unknown, not 0: a method with such a period has no known total (NULL), and neither have the
-- shares of its venue (their denominator is unknown).
WITH periods AS (
  SELECT venue_id, metric, period_start, period_end, value
  FROM summary_values
  WHERE stream = 'venue-users-login-methods'
    AND (getvariable('from_date') IS NULL OR period_start >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR period_start <= getvariable('to_date'))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
),
day_rows AS (
  SELECT * FROM periods WHERE period_end = period_start
),
chosen AS (
  SELECT * FROM day_rows
  UNION ALL
  SELECT p.* FROM periods p
  WHERE p.period_end > p.period_start
    AND NOT EXISTS (SELECT 1 FROM day_rows d
                    WHERE d.venue_id = p.venue_id AND d.metric = p.metric
                      AND d.period_start BETWEEN p.period_start AND p.period_end)
),
per_method AS (
  SELECT venue_id, metric AS method,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS logins,
         min(period_start) AS first_day, max(period_end) AS last_day
  FROM chosen
  GROUP BY venue_id, metric
)
SELECT venue_id,
       method,
       logins::BIGINT AS logins,
       CASE WHEN count(logins) OVER venue = count(*) OVER venue
            THEN round(logins / nullif(sum(logins) OVER venue, 0), 4) END AS share,
       first_day,
       last_day
FROM per_method
WINDOW venue AS (PARTITION BY venue_id)
ORDER BY venue_id, logins DESC NULLS LAST, method;
