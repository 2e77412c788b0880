-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
-- Days loaded by the hour without all of their 24 UTC hours, per venue, stream and metric
--
-- The hour grain (sync.historyGrain) loads a day as its 24 hourly points, in one window of its
-- own beside the day grain's rows; fewer hours mean rows written outside that path (a partial
-- day would make every hourly total of it too small). Empty result = pass.
-- The UTC day comes from the epoch (floor, so days before 1970 stay right): the same day as
-- timezone('UTC', ts)::DATE whatever the session's TimeZone, at a tenth of the cost.
SELECT venue_id, stream, metric, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day,
       count(*)::INTEGER AS hour_rows
FROM series_points
WHERE granularity = 'hour'
GROUP BY venue_id, stream, metric, day
HAVING count(*) <> 24
ORDER BY stream, venue_id, metric, day;
