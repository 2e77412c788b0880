-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
-- Gaps in series_points: days missing for a venue and stream between its first and last loaded day
--
-- Returns one row per gap (a run of consecutive missing UTC days) of each grain: the day and
-- hour grains (sync.historyGrain) are loaded and complete on their own. A day counts as loaded
-- in a grain when the venue and stream have any row of that grain that day, for any metric.
-- Empty result = pass.
-- The UTC day comes from the epoch (floor, so days before 1970 stay right): the same day as
-- timezone('UTC', ts)::DATE whatever the session's TimeZone, at a tenth of the cost.
-- Only the series with a missing day are ordered by day (the window): one whose distinct days
-- fill the span from its first to its last has no gap. Ordering every series' days took about
-- a third of the check (300 venues x 1 year with 120 days of hours: 0.65 s of CPU -> 0.46 s).
WITH days AS (
  SELECT DISTINCT venue_id, stream, granularity, DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day
  FROM series_points
),
gapped AS (
  SELECT venue_id, stream, granularity
  FROM days
  GROUP BY venue_id, stream, granularity
  HAVING count(*) < max(day) - min(day) + 1
),
steps AS (
  SELECT venue_id, stream, granularity, day,
         lag(day) OVER (PARTITION BY venue_id, stream, granularity ORDER BY day) AS previous_day
  FROM days
  SEMI JOIN gapped USING (venue_id, stream, granularity)
)
SELECT venue_id,
       stream,
       granularity,
       previous_day + 1 AS gap_from,
       day - 1 AS gap_to,
       (day - previous_day - 1)::INTEGER AS missing_days
FROM steps
WHERE day - previous_day > 1
ORDER BY stream, venue_id, granularity, gap_from;
