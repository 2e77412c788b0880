-- Duplicate keys in series_points: more than one row per venue, stream, metric, granularity and ts
--
-- The loader replaces whole windows and refuses batches with duplicate keys, and the table has
-- no PRIMARY KEY (it would make loading slower), so this check is the safety net. Empty = pass.
--
-- Two steps. First the candidate days, from the daily rollup (series_daily,
-- sql/rollups/series-daily-of.sql): a day holding more than one day grain row, or more hour rows
-- than distinct UTC hours (two rows with the same ts fall in the same hour; so do two points
-- within one hour, which the next step drops). Then the exact keys of the candidate days' points,
-- grouped: the result is that of grouping every row. When there are no candidates (a healthy
-- warehouse), DuckDB skips the scan of the points.
WITH candidates AS (
  SELECT venue_id, stream, metric, day
  FROM series_daily
  WHERE day_points > 1 OR hour_points > hour_slots
),
points AS (
  SELECT sp.*
  FROM series_points sp
  SEMI JOIN candidates c
    ON c.venue_id = sp.venue_id AND c.stream = sp.stream AND c.metric = sp.metric
   AND c.day = DATE '1970-01-01' + floor(epoch_us(sp.ts) / 86400000000)::INTEGER
)
SELECT venue_id, stream, metric, granularity, ts, count(*) AS copies
FROM points
GROUP BY venue_id, stream, metric, granularity, ts
HAVING count(*) > 1
ORDER BY stream, venue_id, metric, granularity, ts;
