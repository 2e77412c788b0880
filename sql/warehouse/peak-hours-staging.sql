-- What a write of series_points changes in the peak-hours rollup (sql/migrations/
-- 009_peak_hours_rollup.sql), gathered before and after the write in its transaction, then
-- applied by peak-hours-apply.sql (temp: private to the writing connection; recreated empty
-- for every write).
--   peak_hours_affected — the venue, metric and UTC month whose peak_hour_slots rows are
--                         computed again from series_points after the write;
--   peak_hours_delta    — what peak_hour_totals gains (the rows written) and loses (the rows
--                         deleted): points count one by one, so the totals change by addition
--                         instead of reading every venue's points of those hours again.
CREATE OR REPLACE TEMP TABLE peak_hours_affected (venue_id UUID, pair TINYINT, month DATE);
CREATE OR REPLACE TEMP TABLE peak_hours_delta (pair TINYINT, ts TIMESTAMPTZ, points BIGINT, known BIGINT, total DOUBLE);
