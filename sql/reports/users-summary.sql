-- Logins, unique logins, confirmed and returning users per venue and summary period (venue-users-summary)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- periods starting on or after this day
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- periods starting on or before this day
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- One row per period the API summarised: days (period_end = period_start) or months. Day rows
-- win over the month rows that cover the same days (see login-method-shares.sql), so nothing is
-- shown twice. confirmed-users and returning-users are the API's counts for the period as sent;
-- a value the API sent as null stays NULL (unknown, not 0).
WITH periods AS (
  SELECT venue_id, metric, period_start, period_end, value
  FROM summary_values
  WHERE stream = 'venue-users-summary'
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
)
SELECT venue_id,
       period_start,
       period_end,
       (max(value) FILTER (WHERE metric = 'logins'))::BIGINT AS logins,
       (max(value) FILTER (WHERE metric = 'unique-logins'))::BIGINT AS unique_logins,
       (max(value) FILTER (WHERE metric = 'confirmed-users'))::BIGINT AS confirmed_users,
       (max(value) FILTER (WHERE metric = 'returning-users'))::BIGINT AS returning_users
FROM chosen
GROUP BY venue_id, period_start, period_end
ORDER BY venue_id, period_start, period_end;
