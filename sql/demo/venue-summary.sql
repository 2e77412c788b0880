-- Per venue, the last 7 loaded days: devices detected and authenticated, logins, rating.
-- venue is the venue's label (sql/views/venue-labels.sql): its name from the config.
-- Series may hold hourly or daily rows; both sum to the day for these additive counts.
WITH last_day AS (
  SELECT max(ts) AS ts FROM series_points WHERE stream = 'venue-devices-history'
),
recent AS (
  SELECT p.*
  FROM (
    -- Both grains of a day may be loaded (sync.historyGrain): the day's own point wins, its
    -- hours count only for a day loaded by the hour alone (the ENUM orders 'hour' < 'day').
    SELECT * FROM series_points
    QUALIFY granularity = max(granularity) OVER (PARTITION BY venue_id, stream, metric, timezone('UTC', ts)::DATE)
  ) AS p, last_day
  WHERE p.ts > last_day.ts - INTERVAL 7 DAY
)
SELECT
  venue_label(venue_id) AS venue,
  venue_id::VARCHAR AS venue_id,
  sum(value) FILTER (WHERE stream = 'venue-devices-history' AND metric = 'detected')::BIGINT AS detected,
  sum(value) FILTER (WHERE stream = 'venue-devices-history' AND metric = 'authenticated')::BIGINT AS authenticated,
  sum(value) FILTER (WHERE stream = 'venue-users-history' AND metric = 'logins')::BIGINT AS logins,
  round(sum(value) FILTER (WHERE stream = 'rating-history' AND metric = 'rates-count'), 0)::BIGINT AS ratings
FROM recent
GROUP BY venue_id
ORDER BY venue, venue_id;
