-- The venue, stream and UTC days a series round changed (changed_series_windows, one window per
-- venue, stream and grain: sql/warehouse/series-changed-windows.sql), once each: both grains of a
-- day feed the same rollup row.
CREATE OR REPLACE TEMP TABLE rollup_days AS
SELECT DISTINCT venue_id, stream, day::DATE AS day
FROM changed_series_windows,
     unnest(generate_series(timezone('UTC', ts_from), timezone('UTC', ts_to) - INTERVAL 1 DAY, INTERVAL 1 DAY)) AS d(day);
