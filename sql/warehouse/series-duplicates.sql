-- Keys staged more than once. Identical copies are harmless (deduplicated);
-- distinct_values > 1 means the batch contradicts itself and is refused.
SELECT w.venue_id::VARCHAR AS venue_id, w.stream, m.metric, m.granularity,
       make_timestamptz(CAST(s.ts_ms AS BIGINT) * 1000)::VARCHAR AS ts,
       count(*)::INTEGER AS copies,
       count(DISTINCT s.value)::INTEGER AS distinct_values
FROM stage_series AS s
JOIN stage_series_windows AS w USING (w)
JOIN stage_series_metrics AS m USING (m)
GROUP BY ALL
HAVING count(*) > 1
ORDER BY distinct_values DESC
LIMIT 5;
