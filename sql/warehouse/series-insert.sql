-- Writes the staged rows of the changed windows. $1 = run_id. now() is the transaction's
-- start, so every row of one commit carries the same loaded_at.
INSERT INTO series_points
SELECT c.venue_id, c.stream, m.metric, m.granularity,
       make_timestamptz(CAST(s.ts_ms AS BIGINT) * 1000),
       CASE WHEN isnan(s.value) THEN NULL ELSE s.value END,
       $1, now()
FROM stage_series AS s
JOIN changed_series_windows AS c USING (w)
JOIN stage_series_metrics AS m USING (m);
