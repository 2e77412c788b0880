-- Logins per login method and venue with each method's share (venue-users-login-methods)
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
-- Day rows win over the month rows that cover the same days, so nothing is counted twice; periods
-- are picked by their first day (see summary_periods in sql/migrations/003_report_macros.sql). A
-- value the API sent as null is unknown, not 0: a method with such a period has no known total
-- (NULL), and neither have the shares of its venue (their denominator is unknown).
WITH chosen AS (
  SELECT * FROM summary_periods('venue-users-login-methods', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
),
per_method AS (
  SELECT venue_id, metric AS method,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS logins,
         min(period_start) AS first_day, max(period_end) AS last_day
  FROM chosen
  GROUP BY venue_id, metric
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       method,
       logins::BIGINT AS logins,
       CASE WHEN count(logins) OVER venue = count(*) OVER venue
            THEN round(logins / nullif(sum(logins) OVER venue, 0), 4) END AS share,
       first_day,
       last_day
FROM per_method
WINDOW venue AS (PARTITION BY venue_id)
ORDER BY venue_id, logins DESC NULLS LAST, method;
