-- Rating requests per venue and month: sent, opened, rated, commented (rating-statistics-summaries): rating-request-funnel month by month, for the dashboard's range control
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
-- The periods rating-request-funnel sums (summary_periods), summed per month of their first day
-- instead of over the whole range. A count the API sent as null is unknown: the step's month
-- total is NULL.
WITH chosen AS (
  SELECT * FROM summary_periods('rating-statistics-summaries', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
),
per_metric AS (
  SELECT venue_id, strftime(period_start, '%Y-%m') AS month, metric,
         CASE WHEN count(value) = count(*) THEN sum(value) END AS total
  FROM chosen
  GROUP BY venue_id, month, metric
)
SELECT venue_id,
       month,
       (max(total) FILTER (WHERE metric = 'requests-sent'))::BIGINT AS sent,
       (max(total) FILTER (WHERE metric = 'requests-opened'))::BIGINT AS opened,
       (max(total) FILTER (WHERE metric = 'requests-rated'))::BIGINT AS rated,
       (max(total) FILTER (WHERE metric = 'requests-commented'))::BIGINT AS commented
FROM per_metric
GROUP BY venue_id, month
ORDER BY venue_id, month;
