-- Days whose hours do not add up to the day, for the additive metrics, where both grains are loaded
--
-- detected, authenticated, logins, embeds and rates-count count events, so a day's 24 hourly
-- points add up to its daily point. unique-* metrics count distinct devices or users (one seen
-- at 09:00 and at 10:00 is one that day) and rates-average is an average: not compared. Only
-- days with both grains and all 24 hours are compared (partial days are series-partial-hours'
-- business), and only where every value is known (NULL is unknown, not 0). Empty result = pass.
WITH additive(stream, metric) AS (
  VALUES ('venue-devices-history', 'detected'),
         ('venue-devices-history', 'authenticated'),
         ('venue-users-history', 'logins'),
         ('venue-remarketing-history', 'embeds'),
         ('rating-history', 'rates-count')
),
per_grain AS (
  SELECT sp.venue_id, sp.stream, sp.metric, timezone('UTC', sp.ts)::DATE AS day,
         count(*) FILTER (WHERE sp.granularity = 'hour') AS hours,
         sum(sp.value) FILTER (WHERE sp.granularity = 'hour') AS hours_total,
         count(sp.value) FILTER (WHERE sp.granularity = 'hour') AS hours_known,
         count(*) FILTER (WHERE sp.granularity = 'day') AS day_rows,
         max(sp.value) FILTER (WHERE sp.granularity = 'day') AS day_value
  FROM series_points sp
  SEMI JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  GROUP BY ALL
)
SELECT venue_id, stream, metric, day, day_value, hours_total,
       hours_total - day_value AS difference
FROM per_grain
WHERE day_rows = 1 AND hours = 24 AND hours_known = 24 AND day_value IS NOT NULL
  AND hours_total <> day_value
ORDER BY stream, metric, venue_id, day;
