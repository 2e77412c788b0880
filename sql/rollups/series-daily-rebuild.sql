-- series_daily summed again from every point series_points holds, in day order (reports over
-- recent days skip the older row groups by their min/max day). Run once by migration 008; by hand
-- (venue-etl includes the definition: in the DuckDB CLI, paste series-daily-of.sql in its place)
-- after writing series_points outside venue-etl, whose loads keep the rollup exact themselves.
DELETE FROM series_daily;
INSERT INTO series_daily
SELECT * FROM (
-- @include rollups/series-daily-of.sql
) AS rollup
ORDER BY day, stream, venue_id, metric;
