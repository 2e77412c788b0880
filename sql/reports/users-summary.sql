-- Logins, unique logins, confirmed and returning users per venue and summary period (venue-users-summary)
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
-- One row per period the API summarised: days (period_end = period_start) or months. Day rows
-- win over the month rows that cover the same days (summary_periods, in
-- sql/migrations/003_report_macros.sql), so nothing is shown twice. confirmed-users and
-- returning-users are the API's counts for the period as sent; a value the API sent as null
-- stays NULL (unknown, not 0).
WITH chosen AS (
  SELECT * FROM summary_periods('venue-users-summary', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       period_start,
       period_end,
       (max(value) FILTER (WHERE metric = 'logins'))::BIGINT AS logins,
       (max(value) FILTER (WHERE metric = 'unique-logins'))::BIGINT AS unique_logins,
       (max(value) FILTER (WHERE metric = 'confirmed-users'))::BIGINT AS confirmed_users,
       (max(value) FILTER (WHERE metric = 'returning-users'))::BIGINT AS returning_users
FROM chosen
GROUP BY venue_id, period_start, period_end
ORDER BY venue_id, period_start, period_end;
