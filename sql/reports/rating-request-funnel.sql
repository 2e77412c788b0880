-- Rating requests per venue over the range: sent, opened, rated, commented, with each step's share of sent (rating-statistics-summaries)
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- periods starting on or after this day
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- periods starting on or before this day
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- Day rows win over the month rows that cover the same days (see login-method-shares.sql). A
-- count the API sent as null is unknown, not 0: a step with such a period has no known total
-- (NULL), and neither has its share.
WITH periods AS (
  SELECT venue_id, metric, period_start, period_end, value
  FROM summary_values
  WHERE stream = 'rating-statistics-summaries'
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
SELECT venue_id,
       sent::BIGINT AS sent,
       opened::BIGINT AS opened,
       rated::BIGINT AS rated,
       commented::BIGINT AS commented,
       round(opened / nullif(sent, 0), 4) AS opened_share,
       round(rated / nullif(sent, 0), 4) AS rated_share,
       round(commented / nullif(sent, 0), 4) AS commented_share
FROM funnel
ORDER BY venue_id;
