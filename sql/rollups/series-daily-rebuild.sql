-- series_daily summed again from every point series_points holds, in venue order: sorted, a venue's
-- rows are runs that DuckDB stores run-length encoded; in the aggregate's order its UUIDs were
-- bit-packed, and reading them back made every scan of the table ~25x slower (1,000 venues x 1
-- year, 3.3M rows: SELECT DISTINCT venue_id 640 ms -> 14 ms; venue-ranking 2.0 s -> 0.09 s). Run once by migration 008; by hand
-- (venue-etl includes the definition: in the DuckDB CLI, paste series-daily-of.sql in its place)
-- after writing series_points outside venue-etl, whose loads keep the rollup exact themselves.
DELETE FROM series_daily;
INSERT INTO series_daily
SELECT * FROM (
-- @include rollups/series-daily-of.sql
) AS rollup
ORDER BY venue_id, stream, metric, day;
