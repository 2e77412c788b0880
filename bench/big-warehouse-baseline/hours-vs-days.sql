-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
-- Days whose hours do not add up to the day, for the additive metrics, where both grains are loaded
--
-- detected, authenticated, logins, embeds and rates-count count events, so a day's 24 hourly
-- points add up to its daily point. unique-* metrics count distinct devices or users (one seen
-- at 09:00 and at 10:00 is one that day) and rates-average is an average: not compared. Only
-- days with both grains and all 24 hours are compared (partial days are series-partial-hours'
-- business), and only where every value is known (NULL is unknown, not 0). Empty result = pass.
-- The UTC day comes from the epoch (floor, so days before 1970 stay right): the same day as
-- timezone('UTC', ts)::DATE whatever the session's TimeZone, at a tenth of the cost.
-- The metrics are grouped by number, not by their stream and metric names (text keys cost more
-- to group by): the names are put back on the few rows returned.
WITH additive AS (SELECT * FROM additive_metrics()),
per_grain AS (
  SELECT sp.venue_id, a.pair, DATE '1970-01-01' + floor(epoch_us(sp.ts) / 86400000000)::INTEGER AS day,
         count(*) FILTER (WHERE sp.granularity = 'hour') AS hours,
         sum(sp.value) FILTER (WHERE sp.granularity = 'hour') AS hours_total,
         count(sp.value) FILTER (WHERE sp.granularity = 'hour') AS hours_known,
         count(*) FILTER (WHERE sp.granularity = 'day') AS day_rows,
         max(sp.value) FILTER (WHERE sp.granularity = 'day') AS day_value
  FROM series_points sp
  JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  GROUP BY sp.venue_id, a.pair, day
)
SELECT g.venue_id, a.stream, a.metric, g.day, g.day_value, g.hours_total,
       g.hours_total - g.day_value AS difference
FROM per_grain g
JOIN additive a USING (pair)
WHERE g.day_rows = 1 AND g.hours = 24 AND g.hours_known = 24 AND g.day_value IS NOT NULL
  AND g.hours_total <> g.day_value
ORDER BY a.stream, a.metric, g.venue_id, g.day;
