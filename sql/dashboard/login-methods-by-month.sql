-- Logins per login method, venue and month (venue-users-login-methods): login-method-shares month by month, for the dashboard's range control
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- periods starting on or after this day
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- periods starting on or before this day
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Parquet months read: summary_values from from_date to to_date + 31 days
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts); a month period starting on to_date is weighed against its day
--   rows, up to 31 days later.
--
-- The periods login-method-shares sums (summary_periods: day rows win over the month rows that
-- cover the same days), summed per month of their first day instead of over the whole range, so
-- a month's row is what `venue-etl report login-method-shares` gives for that month's days. A
-- value the API sent as null is unknown: the method's month total is NULL.
WITH chosen AS (
  SELECT * FROM summary_periods('venue-users-login-methods', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
)
SELECT venue_id,
       strftime(period_start, '%Y-%m') AS month,
       metric AS method,
       (CASE WHEN count(value) = count(*) THEN sum(value) END)::BIGINT AS logins
FROM chosen
GROUP BY venue_id, month, method
ORDER BY venue_id, month, method;
