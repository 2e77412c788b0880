-- Duplicate keys in summary_values: more than one row per venue, stream, metric and period
--
-- The period is (period_start, period_end): a day row and a month row starting the same day are
-- different periods, not duplicates. Empty result = pass.
SELECT venue_id, stream, metric, period_start, period_end, count(*) AS copies
FROM summary_values
GROUP BY venue_id, stream, metric, period_start, period_end
HAVING count(*) > 1
ORDER BY stream, venue_id, metric, period_start;
