-- A load round, after its insert (series-insert.sql): the points it wrote, added to the totals
-- from the staged rows (the same values series-insert.sql wrote, without reading them back).
INSERT INTO peak_hours_delta
SELECT a.pair, make_timestamptz(CAST(s.ts_ms AS BIGINT) * 1000) AS ts,
       count(*), count(*) FILTER (WHERE NOT isnan(s.value)),
       coalesce(sum(s.value) FILTER (WHERE NOT isnan(s.value)), 0)
FROM stage_series s
JOIN changed_series_windows c USING (w)
JOIN stage_series_metrics m USING (m)
JOIN additive_metrics() a ON a.stream = c.stream AND a.metric = m.metric
WHERE m.granularity = 'hour'
GROUP BY ALL;
