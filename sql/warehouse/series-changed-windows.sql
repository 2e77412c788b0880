-- The staged windows whose rows differ from what series_points holds for the same venue,
-- stream and time range. Rows compare as multisets with NULL = NULL (EXCEPT ALL): a window
-- whose row count differs has changed; for equal counts one direction of EXCEPT ALL decides.
-- Only changed windows are deleted and re-inserted, so re-loading unchanged data writes
-- nothing and keeps the rows' run_id and loaded_at.
CREATE OR REPLACE TEMP TABLE changed_series_windows AS
WITH stored AS MATERIALIZED (
  SELECT w.w, m.m, epoch_ms(s.ts) AS ts_ms, s.value
  FROM series_points AS s
  JOIN stage_series_windows AS w
    ON s.venue_id = w.venue_id AND s.stream = w.stream AND s.ts >= w.ts_from AND s.ts < w.ts_to
  -- A stored metric the batch does not have keeps m NULL and so matches nothing.
  LEFT JOIN stage_series_metrics AS m
    ON s.metric = m.metric AND s.granularity = m.granularity
),
stored_count AS (SELECT w, count(*) AS n FROM stored GROUP BY w),
staged_count AS (SELECT w, count(*) AS n FROM stage_series GROUP BY w),
counts AS (
  SELECT w.*, coalesce(o.n, 0) AS stored_rows, coalesce(n.n, 0) AS staged_rows
  FROM stage_series_windows AS w
  LEFT JOIN stored_count AS o USING (w)
  LEFT JOIN staged_count AS n USING (w)
),
same_size AS (SELECT w FROM counts WHERE stored_rows = staged_rows AND staged_rows > 0),
differing AS (
  SELECT DISTINCT w FROM (
    SELECT w, m, CAST(ts_ms AS BIGINT) AS ts_ms, CASE WHEN isnan(value) THEN NULL ELSE value END AS value
    FROM stage_series WHERE w IN (SELECT w FROM same_size)
    EXCEPT ALL
    SELECT w, m, ts_ms, value FROM stored WHERE w IN (SELECT w FROM same_size)
  )
)
SELECT * FROM counts
WHERE stored_rows <> staged_rows OR w IN (SELECT w FROM differing);
