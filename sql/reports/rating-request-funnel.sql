-- Rating requests per venue over the range: sent, opened, rated, commented, with each step's share of sent (rating-statistics-summaries)
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
-- Day rows win over the month rows that cover the same days (summary_periods, in
-- sql/migrations/003_report_macros.sql). A count the API sent as null is unknown, not 0: a
-- step with such a period has no known total (NULL), and neither has its share.
WITH chosen AS (
  SELECT * FROM summary_periods('rating-statistics-summaries', getvariable('from_date'), getvariable('to_date'), getvariable('venue_ids'))
),
per_metric AS (
  SELECT venue_id, metric, CASE WHEN count(value) = count(*) THEN sum(value) END AS total
  FROM chosen
  GROUP BY venue_id, metric
),
funnel AS (
  SELECT venue_id,
         max(total) FILTER (WHERE metric = 'requests-sent') AS sent,
         max(total) FILTER (WHERE metric = 'requests-opened') AS opened,
         max(total) FILTER (WHERE metric = 'requests-rated') AS rated,
         max(total) FILTER (WHERE metric = 'requests-commented') AS commented
  FROM per_metric
  GROUP BY venue_id
)
SELECT venue_label(venue_id) AS venue,
       venue_id,
       sent::BIGINT AS sent,
       opened::BIGINT AS opened,
       rated::BIGINT AS rated,
       commented::BIGINT AS commented,
       round(opened / nullif(sent, 0), 4) AS opened_share,
       round(rated / nullif(sent, 0), 4) AS rated_share,
       round(commented / nullif(sent, 0), 4) AS commented_share
FROM funnel
ORDER BY venue_id;
