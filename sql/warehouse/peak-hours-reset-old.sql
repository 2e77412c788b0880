-- `reset --rows`, before reset-series.sql (same parameters, same selection): the additive hour
-- points it deletes (whole instances: every point of a venue, stream and hour in the selection).
-- $1 = streams, comma-separated; $2 = venue ids or NULL; $3 = from DATE or NULL; $4 = to DATE or NULL.
INSERT INTO peak_hours_old
SELECT s.venue_id, a.pair, s.ts, s.value
FROM series_points s
JOIN additive_metrics() a ON a.stream = s.stream AND a.metric = s.metric
WHERE s.granularity = 'hour'
  AND list_contains(string_split($1::VARCHAR, ','), s.stream)
  AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), s.venue_id::VARCHAR))
  AND ($3::DATE IS NULL OR s.ts >= $3::DATE::TIMESTAMPTZ)
  AND ($4::DATE IS NULL OR s.ts < ($4::DATE + 1)::TIMESTAMPTZ);
