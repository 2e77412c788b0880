-- Ratings per venue and month: how many, the average, and how many of each value 1 to 5 (rating-summary)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- periods starting on or after this day
--   SET VARIABLE to_date   = DATE '2026-12-31';      -- periods starting on or before this day
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Parquet months read: summary_values from from_date to to_date + 31 days
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts); a month period starting on to_date is weighed against its day
--   rows, up to 31 days later.
--
-- The average is computed from the distribution (sum of value x count / count), so it is exact
-- for any bucket, unlike an average of per-period averages. Day rows win over month rows that
-- cover the same days (summary_periods, in sql/migrations/003_report_macros.sql). A count the
-- API sent as null is unknown, not 0: its rated_N is NULL, and so are the month's rates and
-- average_rate.
WITH chosen AS (
  SELECT * FROM summary_periods('rating-summary', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
  WHERE metric LIKE 'rates\_per\_value.%' ESCAPE '\'
),
counts AS (
  SELECT venue_id,
         strftime(period_start, '%Y-%m') AS month,
         CAST(split_part(metric, '.', 2) AS INTEGER) AS rate,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS n
  FROM chosen
  GROUP BY ALL
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       month,
       CASE WHEN count(n) = count(*) THEN sum(n)::BIGINT END AS rates,
       CASE WHEN count(n) = count(*) THEN round(sum(rate * n) / nullif(sum(n), 0), 3) END AS average_rate,
       (sum(n) FILTER (WHERE rate = 1))::BIGINT AS rated_1,
       (sum(n) FILTER (WHERE rate = 2))::BIGINT AS rated_2,
       (sum(n) FILTER (WHERE rate = 3))::BIGINT AS rated_3,
       (sum(n) FILTER (WHERE rate = 4))::BIGINT AS rated_4,
       (sum(n) FILTER (WHERE rate = 5))::BIGINT AS rated_5
FROM counts
GROUP BY venue_id, month
ORDER BY venue_id, month;
