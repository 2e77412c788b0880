-- 009_peak_hours_rollup: what the peak-hours report reads instead of every hour point for the
-- months it can (sql/reports/peak-hours.sql; docs/commands.md, "How peak-hours reads"). The
-- report's zone is a parameter, so nothing here is in local time: a month whose zone offset does not change
-- maps each UTC second of the week to exactly one local weekday and hour, and the report does
-- that mapping on these rows. Both tables hold the hour grain of additive_metrics() only, and
-- are kept by every write of series_points in the same transaction (src/warehouse/
-- peak-hours-rollup.ts: a load round, `reset --rows`); series_points written by hand is
-- followed by sql/warehouse/peak-hours-rebuild.sql.
--
-- peak_hour_slots: per venue, metric, UTC month and UTC second of the week, the instances (one
-- venue, metric and timestamp: its points summed, unknown when one is NULL) — how many, how
-- many known, and the sum of the known ones: 168 rows per venue, metric and month of hourly
-- data instead of ~730 points.
CREATE TABLE peak_hour_slots (
  venue_id    UUID     NOT NULL,
  pair        TINYINT  NOT NULL,   -- additive_metrics().pair
  month       DATE     NOT NULL,   -- first day of the UTC month
  week_second INTEGER  NOT NULL,   -- seconds since Monday 00:00 UTC, 0 … 604,799
  instances   INTEGER  NOT NULL,
  known       INTEGER  NOT NULL,
  total       DOUBLE               -- NULL when known = 0
);

-- peak_hour_totals: per metric and timestamp, the points of every venue — how many, how many
-- known, the sum of the known ones: the report's 'all' rows (an 'all' hour is unknown when any
-- venue's point is). One row per metric and hour loaded: 5 x 8,760 a year, whatever the venues.
CREATE TABLE peak_hour_totals (
  pair   TINYINT     NOT NULL,
  ts     TIMESTAMPTZ NOT NULL,
  points BIGINT      NOT NULL,
  known  BIGINT      NOT NULL,
  total  DOUBLE      NOT NULL     -- 0 when known = 0
);

-- True where these tables are kept; the Parquet read side and a warehouse not migrated yet get
-- a temporary macro answering false and empty tables (sql/readside/peak-hours-absent.sql), and
-- the report then reads every point.
CREATE OR REPLACE MACRO peak_hours_rolled_up() AS true;

-- The rows already loaded: the rebuild's statements (its DELETEs find the new tables empty).
-- @include warehouse/peak-hours-rebuild.sql
