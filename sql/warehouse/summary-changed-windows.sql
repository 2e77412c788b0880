-- The staged summary windows whose rows differ from what summary_values holds in the region
-- the window owns: period_start in [d_from, d_to] and a period of the window's grain ('day':
-- single-day periods; 'month': longer periods, plus single-day ones when owns_single_day).
-- Same multiset comparison as series-changed-windows.sql.
CREATE OR REPLACE TEMP TABLE changed_summary_windows AS
WITH stored AS MATERIALIZED (
  SELECT w.w, m.m,
         (s.period_start - DATE '1970-01-01')::INTEGER AS start_day,
         (s.period_end - DATE '1970-01-01')::INTEGER AS end_day,
         s.value
  FROM summary_values AS s
  JOIN stage_summary_windows AS w
    ON s.venue_id = w.venue_id AND s.stream = w.stream
   AND s.period_start BETWEEN w.d_from AND w.d_to
   AND CASE WHEN w.grain = 'day' THEN s.period_end = s.period_start
            ELSE s.period_end > s.period_start OR (w.owns_single_day AND s.period_end = s.period_start)
       END
  LEFT JOIN stage_summary_metrics AS m ON s.metric = m.metric
),
stored_count AS (SELECT w, count(*) AS n FROM stored GROUP BY w),
staged_count AS (SELECT w, count(*) AS n FROM stage_summaries GROUP BY w),
counts AS (
  SELECT w.*, coalesce(o.n, 0) AS stored_rows, coalesce(n.n, 0) AS staged_rows
  FROM stage_summary_windows AS w
  LEFT JOIN stored_count AS o USING (w)
  LEFT JOIN staged_count AS n USING (w)
),
same_size AS (SELECT w FROM counts WHERE stored_rows = staged_rows AND staged_rows > 0),
differing AS (
  SELECT DISTINCT w FROM (
    SELECT w, m, start_day, end_day, CASE WHEN isnan(value) THEN NULL ELSE value END AS value
    FROM stage_summaries WHERE w IN (SELECT w FROM same_size)
    EXCEPT ALL
    SELECT w, m, start_day, end_day, value FROM stored WHERE w IN (SELECT w FROM same_size)
  )
)
SELECT * FROM counts
WHERE stored_rows <> staged_rows OR w IN (SELECT w FROM differing);
