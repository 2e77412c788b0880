-- Refreshes the series_daily rows of the days in rollup_days (series-daily-days.sql) from the
-- points series_points holds for them now, in the load's transaction: the rows are deleted, then
-- the days still holding points are summed again by the one definition (series-daily-of.sql),
-- over a CTE named series_points that holds only those days' points. The cost follows the days
-- changed, not the warehouse: the bounds of those days, as variables (a constant to the planner;
-- a join is not), let both scans skip the row groups of other days by their min/max.
SET VARIABLE rollup_first_day = (SELECT min(day) FROM rollup_days);
SET VARIABLE rollup_last_day = (SELECT max(day) FROM rollup_days);
DELETE FROM series_daily AS d
USING rollup_days AS r
WHERE d.venue_id = r.venue_id AND d.stream = r.stream AND d.day = r.day
  AND d.day BETWEEN getvariable('rollup_first_day') AND getvariable('rollup_last_day');
INSERT INTO series_daily
WITH changed_points AS (
  SELECT p.*
  FROM series_points AS p
  SEMI JOIN rollup_days AS r
    ON p.venue_id = r.venue_id AND p.stream = r.stream
   AND DATE '1970-01-01' + floor(epoch_us(p.ts) / 86400000000)::INTEGER = r.day
  WHERE p.ts >= timezone('UTC', getvariable('rollup_first_day')::TIMESTAMP)
    AND p.ts < timezone('UTC', (getvariable('rollup_last_day') + 1)::TIMESTAMP)
),
series_points AS (SELECT * FROM changed_points)
SELECT * FROM (
-- @include rollups/series-daily-of.sql
) AS rollup
-- In venue order, as series-daily-rebuild.sql says why.
ORDER BY venue_id, stream, metric, day;
