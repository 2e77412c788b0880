-- Staging tables of one series load round (temp: private to the loading connection, gone
-- when it closes; recreated empty for every round).
--
-- The loader stages numbers only, because that is the fast path of the Node appender:
-- strings would cost a native call per value. Venue/stream/window are one row per window
-- (w), metric and granularity one row per dictionary entry (m).
CREATE OR REPLACE TEMP TABLE stage_series_windows (
  w       INTEGER,
  venue_id UUID,
  stream  VARCHAR,
  ts_from TIMESTAMPTZ,            -- window start, inclusive (windowFrom 00:00Z)
  ts_to   TIMESTAMPTZ,            -- window end, exclusive (windowTo + 1 day 00:00Z)
  granularity ENUM ('hour', 'day')  -- the grain the window replaces; the other grain's rows stay
);
CREATE OR REPLACE TEMP TABLE stage_series_metrics (
  m           INTEGER,
  metric      VARCHAR,
  granularity ENUM ('hour', 'day')   -- the type of series_points.granularity: hashes alike
);
CREATE OR REPLACE TEMP TABLE stage_series (
  w     INTEGER,
  m     INTEGER,
  ts_ms DOUBLE,                   -- epoch milliseconds
  value DOUBLE                    -- NaN stands for NULL (JSON cannot carry NaN)
);
