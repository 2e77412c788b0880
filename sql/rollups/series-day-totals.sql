-- The grain rule, stated once: a day's total of one series metric, from series_daily (the
-- rollup of series_points, sql/rollups/series-daily-of.sql). Every report and check that totals
-- series by day reads through this macro (sql/README.md); none says the rule again.
--
--   * a day held by the day (a day grain point): its own point, whatever hours it also holds;
--   * a day held by the hour alone: the sum of its hours, for the metrics that add up over hours
--     (additive_metrics(), sql/migrations/006_additive_metrics.sql); NULL for the others
--     (unique-* counts distinct devices or users, rates-average is an average);
--   * a value the API sent as null is unknown, not 0: a day with an unknown point of the grain
--     that counts has no known total (NULL).
--
-- Parameters as series_day_totals had them (003_report_macros.sql, whose version read the raw
-- points): the stream, the first and last UTC day (NULL = open), the venue ids as VARCHAR[] (NULL
-- = all). day_grain says the day is held by the day.
--
-- The warehouse keeps series_daily as a table (migration 008, refreshed by every load); the
-- Parquet read side and a warehouse not yet migrated read it as a view of the same text
-- (src/readside/report-macros.ts). This file holds the macro only, so both run it as it is.
CREATE OR REPLACE MACRO series_day_totals(of_stream, first_day, last_day, of_venues) AS TABLE
SELECT d.venue_id, d.day, d.metric,
       d.day_points > 0 AS day_grain,
       CASE WHEN d.day_points > 0 THEN CASE WHEN d.day_known = d.day_points THEN d.day_sum END
            WHEN a.pair IS NOT NULL THEN CASE WHEN d.hour_known = d.hour_points THEN d.hour_sum END
       END AS total
FROM series_daily AS d
LEFT JOIN additive_metrics() AS a ON a.stream = d.stream AND a.metric = d.metric
WHERE d.stream = of_stream
  AND (first_day IS NULL OR d.day >= first_day)
  AND (last_day IS NULL OR d.day <= last_day)
  AND (of_venues IS NULL OR list_contains(of_venues, d.venue_id::VARCHAR));
