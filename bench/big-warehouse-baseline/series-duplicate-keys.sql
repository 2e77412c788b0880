-- Duplicate keys in series_points: more than one row per venue, stream, metric, granularity and ts
--
-- The loader replaces whole windows and refuses batches with duplicate keys, and the table has
-- no PRIMARY KEY (it would make loading slower), so this check is the safety net. Empty = pass.
SELECT venue_id, stream, metric, granularity, ts, count(*) AS copies
FROM series_points
GROUP BY venue_id, stream, metric, granularity, ts
HAVING count(*) > 1
ORDER BY stream, venue_id, metric, ts;
