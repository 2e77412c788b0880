-- Days loaded by the hour without all of their 24 UTC hours, per venue, stream and metric
--
-- The hour grain (sync.historyGrain) loads a day as its 24 hourly points, in one window of its
-- own beside the day grain's rows; fewer hours mean rows written outside that path (a partial
-- day would make every hourly total of it too small). Empty result = pass.
-- Read from the daily rollup (series_daily, sql/rollups/series-daily-of.sql): hour_points is the
-- day's count of hour rows.
SELECT venue_id, stream, metric, day, hour_points AS hour_rows
FROM series_daily
WHERE hour_points > 0 AND hour_points <> 24
ORDER BY stream, venue_id, metric, day;
