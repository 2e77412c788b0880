-- What a write of series_points changes in the peak-hours rollup (sql/migrations/
-- 009_peak_hours_rollup.sql), in its transaction (temp: private to the writing connection;
-- recreated empty for every write): the additive hour points it deletes (peak_hours_old, read
-- before the delete) and writes (peak_hours_new, from the staged rows). peak-hours-apply.sql
-- turns them into the rollup's changes.
CREATE OR REPLACE TEMP TABLE peak_hours_old (venue_id UUID, pair TINYINT, ts TIMESTAMPTZ, value DOUBLE);
CREATE OR REPLACE TEMP TABLE peak_hours_new (venue_id UUID, pair TINYINT, ts TIMESTAMPTZ, value DOUBLE);
