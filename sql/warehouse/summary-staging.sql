-- Staging tables of one summary load round; see series-staging.sql for why numbers only.
-- A window is (slice, venue): a summary slice owns its scope venue plus every venue its
-- rows carry (rating-statistics-summaries name their venue per row).
CREATE OR REPLACE TEMP TABLE stage_summary_windows (
  w               INTEGER,
  venue_id        UUID,
  stream          VARCHAR,
  d_from          DATE,           -- period_start range owned, inclusive both ends
  d_to            DATE,
  grain           VARCHAR,        -- 'day' | 'month'
  owns_single_day BOOLEAN         -- month grain: also owns period_end = period_start rows
);
CREATE OR REPLACE TEMP TABLE stage_summary_metrics (
  m      INTEGER,
  metric VARCHAR
);
CREATE OR REPLACE TEMP TABLE stage_summaries (
  w         INTEGER,
  m         INTEGER,
  start_day INTEGER,              -- days since 1970-01-01
  end_day   INTEGER,
  value     DOUBLE                -- NaN stands for NULL
);
