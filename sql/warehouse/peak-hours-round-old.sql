-- A load round, before its delete (series-delete.sql): the additive hour points of the windows
-- it replaces. A window holds every point of a venue, stream and hour in its range, so the
-- rollup loses whole instances (a repeated key's points together).
INSERT INTO peak_hours_old
SELECT s.venue_id, a.pair, s.ts, s.value
FROM series_points s
JOIN changed_series_windows c
  ON s.venue_id = c.venue_id AND s.stream = c.stream AND s.granularity = c.granularity
 AND s.ts >= c.ts_from AND s.ts < c.ts_to
JOIN additive_metrics() a ON a.stream = s.stream AND a.metric = s.metric
WHERE c.granularity = 'hour';
