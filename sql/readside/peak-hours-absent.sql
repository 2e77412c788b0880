-- Where the peak-hours rollup is not kept (the Parquet read side; a warehouse last written before
-- sql/migrations/009_peak_hours_rollup.sql, opened read-only and never migrated by a read): the
-- same names, empty, for this connection only, and peak_hours_rolled_up() false, so that
-- sql/reports/peak-hours.sql reads every hour point of its range instead.
CREATE OR REPLACE TEMP TABLE peak_hour_slots (
  venue_id UUID, pair TINYINT, month DATE, week_second INTEGER, instances INTEGER, known INTEGER, total DOUBLE
);
CREATE OR REPLACE TEMP TABLE peak_hour_totals (pair TINYINT, ts TIMESTAMPTZ, points BIGINT, known BIGINT, total DOUBLE);
CREATE OR REPLACE TEMP MACRO peak_hours_rolled_up() AS false;
