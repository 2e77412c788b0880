-- Days holding both hourly and daily rows for the same venue, stream and metric (a sum would count them twice)
--
-- A window is reloaded as a whole, whatever granularity the API sends, so both kinds in one
-- day mean a partial reload. Empty result = pass.
SELECT venue_id, stream, metric, timezone('UTC', ts)::DATE AS day,
       count(*) FILTER (WHERE granularity = 'hour') AS hour_rows,
       count(*) FILTER (WHERE granularity = 'day') AS day_rows
FROM series_points
GROUP BY venue_id, stream, metric, day
HAVING count(DISTINCT granularity) > 1
ORDER BY stream, venue_id, metric, day;
