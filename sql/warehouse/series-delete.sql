-- Empties the changed windows (one statement for all of them: a join, not one DELETE each).
-- A window holds one granularity: replacing the days of a range never touches its hours.
DELETE FROM series_points AS s
USING changed_series_windows AS c
WHERE s.venue_id = c.venue_id AND s.stream = c.stream AND s.granularity = c.granularity
  AND s.ts >= c.ts_from AND s.ts < c.ts_to;
