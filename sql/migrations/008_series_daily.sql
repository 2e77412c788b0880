-- 008_series_daily: the daily rollup of series_points, which every report and check that totals
-- series by day reads (through series_day_totals, below), instead of the raw points: 5,000 venues
-- x 1 year is ~146M points and ~16M rollup rows (bench B11, BENCHMARKS.md).
--
-- One row per venue, stream, metric and UTC day holding a point; its columns are defined by one
-- SELECT over raw rows, sql/rollups/series-daily-of.sql, included below (the migration runner and
-- sql() expand `-- @include` lines). Every load refreshes the rows of exactly the days it changed,
-- in its own transaction (src/warehouse/series-daily.ts); so does `reset --rows` for the days it
-- empties. No primary key, as series_points: the loader owns uniqueness, and
-- test/e2e/grain-truth.test.ts compares the table with the text run over every point.
CREATE TABLE series_daily (
  venue_id    UUID    NOT NULL,
  stream      VARCHAR NOT NULL,
  metric      VARCHAR NOT NULL,
  day         DATE    NOT NULL,           -- UTC
  day_points  INTEGER NOT NULL,           -- rows of the day grain that day
  day_known   INTEGER NOT NULL,           -- of which with a known value
  day_sum     DOUBLE,                     -- sum of the known values (NULL: none known)
  hour_points INTEGER NOT NULL,           -- rows of the hour grain that day
  hour_slots  INTEGER NOT NULL,           -- distinct UTC hours among them
  hour_known  INTEGER NOT NULL,
  hour_sum    DOUBLE
);

-- Filled once from what the warehouse holds.
-- @include rollups/series-daily-rebuild.sql

-- The grain rule over the rollup: replaces 003's series_day_totals, which read the raw points.
-- @include rollups/series-day-totals.sql
