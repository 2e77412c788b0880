-- Gaps in series_points: days missing for a venue and stream between its first and last loaded day
--
-- Returns one row per gap (a run of consecutive missing UTC days) of each grain: the day and
-- hour grains (sync.historyGrain) are loaded and complete on their own. A day counts as loaded
-- in a grain when the venue and stream have any row of that grain that day, for any metric.
-- Empty result = pass.
WITH days AS (
  SELECT DISTINCT venue_id, stream, granularity, timezone('UTC', ts)::DATE AS day
  FROM series_points
),
steps AS (
  SELECT venue_id, stream, granularity, day,
         lag(day) OVER (PARTITION BY venue_id, stream, granularity ORDER BY day) AS previous_day
  FROM days
)
SELECT venue_id,
       stream,
       granularity,
       previous_day + 1 AS gap_from,
       day - 1 AS gap_to,
       (day - previous_day - 1)::INTEGER AS missing_days
FROM steps
WHERE day - previous_day > 1
ORDER BY stream, venue_id, gap_from;
