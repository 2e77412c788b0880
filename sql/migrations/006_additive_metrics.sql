-- 006_additive_metrics: the series metrics that count events, so that a day's hourly points add
-- up to its daily point and points add up across venues (detected, authenticated, logins, embeds,
-- rates-count). unique-* metrics count distinct devices or users (one seen at 09:00 and at 10:00
-- is one that day) and rates-average is an average: neither adds up. The peak-hours report and
-- the hours-vs-days check read this one list, numbered (`pair`): they group by the number, not by
-- the stream and metric names (text keys cost more to group by), and put the names back on the
-- few rows they return.
--
-- The Parquet read side (src/readside/report-macros.ts) runs this file after 003 and 005, so it
-- holds a macro only.
CREATE OR REPLACE MACRO additive_metrics() AS TABLE
SELECT * FROM (
  VALUES (1, 'venue-devices-history', 'detected'),
         (2, 'venue-devices-history', 'authenticated'),
         (3, 'venue-users-history', 'logins'),
         (4, 'venue-remarketing-history', 'embeds'),
         (5, 'rating-history', 'rates-count')
) AS additive(pair, stream, metric);
