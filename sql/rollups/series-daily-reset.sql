-- `venue-etl reset --rows`: the series_daily rows that reset-series.sql may change (same
-- parameters, same selection), as rollup_days, for series-daily-refresh.sql to sum again after
-- the delete. One day more on each side: reset-series.sql bounds ts by the dates as the session
-- reads them, and a day the delete cuts in two is summed again from what is left of it.
-- $1 = streams, comma-separated; $2 = venue/project ids or NULL; $3 = from DATE or NULL; $4 = to DATE or NULL.
CREATE OR REPLACE TEMP TABLE rollup_days AS
SELECT DISTINCT venue_id, stream, day
FROM series_daily
WHERE list_contains(string_split($1::VARCHAR, ','), stream)
  AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
  AND ($3::DATE IS NULL OR day >= $3::DATE - 1)
  AND ($4::DATE IS NULL OR day <= $4::DATE + 1);
