-- A load round, before its delete (series-delete.sql): the venues, metrics and UTC months of the
-- hour windows it replaces, and their stored points, subtracted from the totals.
INSERT INTO peak_hours_affected
SELECT DISTINCT c.venue_id, a.pair, m.month::DATE
FROM changed_series_windows c
JOIN additive_metrics() a ON a.stream = c.stream,
     unnest(generate_series(date_trunc('month', timezone('UTC', c.ts_from)),
                            timezone('UTC', c.ts_to) - INTERVAL 1 MICROSECOND,
                            INTERVAL 1 MONTH)) AS m(month)
WHERE c.granularity = 'hour';

INSERT INTO peak_hours_delta
SELECT a.pair, s.ts, -count(*), -count(s.value), -coalesce(sum(s.value), 0)
FROM series_points s
JOIN changed_series_windows c
  ON s.venue_id = c.venue_id AND s.stream = c.stream AND s.granularity = c.granularity
 AND s.ts >= c.ts_from AND s.ts < c.ts_to
JOIN additive_metrics() a ON a.stream = s.stream AND a.metric = s.metric
WHERE c.granularity = 'hour'
GROUP BY a.pair, s.ts;
