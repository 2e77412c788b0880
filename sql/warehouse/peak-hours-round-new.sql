-- A load round, after its insert (series-insert.sql): the additive hour points it wrote, from the
-- staged rows (the values series-insert.sql wrote, without reading them back).
INSERT INTO peak_hours_new
SELECT c.venue_id, a.pair, make_timestamptz(CAST(s.ts_ms AS BIGINT) * 1000),
       CASE WHEN isnan(s.value) THEN NULL ELSE s.value END
FROM stage_series s
JOIN changed_series_windows c USING (w)
JOIN stage_series_metrics m USING (m)
JOIN additive_metrics() a ON a.stream = c.stream AND a.metric = m.metric
WHERE m.granularity = 'hour';
