-- series_daily where it is not kept as a table: the Parquet read side (over its series_points
-- view of the export) and a warehouse not yet migrated to 008 (read commands never migrate; a
-- temporary view there). The same text as the table's (series-daily-of.sql).
CREATE VIEW series_daily AS
-- @include rollups/series-daily-of.sql
;
