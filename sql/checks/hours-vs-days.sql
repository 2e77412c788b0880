-- Days whose hours do not add up to the day, for the additive metrics, where both grains are loaded
--
-- detected, authenticated, logins, embeds and rates-count count events, so a day's 24 hourly
-- points add up to its daily point. unique-* metrics count distinct devices or users (one seen
-- at 09:00 and at 10:00 is one that day) and rates-average is an average: not compared. Only
-- days with both grains and all 24 hours are compared (partial days are series-partial-hours'
-- business), and only where every value is known (NULL is unknown, not 0). Empty result = pass.
-- Read from the daily rollup (series_daily, sql/rollups/series-daily-of.sql), which holds both
-- grains' counts and sums per day: no raw point is read.
SELECT d.venue_id, d.stream, d.metric, d.day, d.day_sum AS day_value, d.hour_sum AS hours_total,
       d.hour_sum - d.day_sum AS difference
FROM series_daily d
SEMI JOIN additive_metrics() a ON a.stream = d.stream AND a.metric = d.metric
WHERE d.day_points = 1 AND d.day_known = 1 AND d.hour_points = 24 AND d.hour_known = 24
  AND d.hour_sum <> d.day_sum
ORDER BY d.stream, d.metric, d.venue_id, d.day;
