-- The staged summary windows whose rows differ from what summary_values holds in the region
-- the window owns: period_start in [d_from, d_to] and a period of the window's grain ('day':
-- single-day periods; 'month': longer periods, plus single-day ones when owns_single_day).
-- Same multiset fingerprint as series-changed-windows.sql.
CREATE OR REPLACE TEMP TABLE changed_summary_windows AS
WITH stored AS (
  SELECT w.w, count(*) AS n,
         sum(hash(s.metric, s.period_start, s.period_end, s.value)::HUGEINT) AS h1,
         sum(hash(s.value, s.period_end, s.period_start, s.metric, 1)::HUGEINT) AS h2
  FROM summary_values AS s
  JOIN stage_summary_windows AS w
    ON s.venue_id = w.venue_id AND s.stream = w.stream
   AND s.period_start BETWEEN w.d_from AND w.d_to
   AND CASE WHEN w.grain = 'day' THEN s.period_end = s.period_start
            ELSE s.period_end > s.period_start OR (w.owns_single_day AND s.period_end = s.period_start)
       END
  GROUP BY w.w
),
staged AS (
  SELECT s.w, count(*) AS n,
         sum(hash(m.metric, s.period_start, s.period_end, s.value)::HUGEINT) AS h1,
         sum(hash(s.value, s.period_end, s.period_start, m.metric, 1)::HUGEINT) AS h2
  FROM (
    SELECT w, m, DATE '1970-01-01' + start_day AS period_start, DATE '1970-01-01' + end_day AS period_end,
           CASE WHEN isnan(value) THEN NULL ELSE value END AS value
    FROM stage_summaries
  ) AS s
  JOIN stage_summary_metrics AS m USING (m)
  GROUP BY s.w
)
SELECT w.*, coalesce(o.n, 0) AS stored_rows, coalesce(n.n, 0) AS staged_rows
FROM stage_summary_windows AS w
LEFT JOIN stored AS o USING (w)
LEFT JOIN staged AS n USING (w)
WHERE coalesce(o.n, 0) <> coalesce(n.n, 0) OR o.h1 IS DISTINCT FROM n.h1 OR o.h2 IS DISTINCT FROM n.h2;
