-- 005_summary_periods_partial_months: summary_periods (003_report_macros.sql) counted a month's
-- day rows and skipped the month as soon as one day of it was held by the day. With tiered
-- summaries (sync.summaryGrain 'tiered') a month can hold both a month row and only some of its
-- days: a nightly sync whose cursor fell behind the day horizon loads the cursor's month by the
-- month, and that month's earlier days are already held by the day. Counting those days alone
-- would lose the rest of the month. Now a month row counts unless every one of its days is held
-- by the day (then the days count, as before); its days count otherwise, never both.
--
-- The Parquet read side runs 003_report_macros.sql and then this file (src/readside/report-macros.ts),
-- so it holds macros only.

-- The summary rows of one stream whose period starts within the range, one row per venue,
-- metric and period, each day counted once. Summary periods are days (period_end =
-- period_start) or months. A month whose days are all held as day rows is replaced by them; a
-- month with some of its days missing at the day grain counts as the month, and its day rows
-- are skipped. Periods are picked by their first day. A month's days are counted over the whole
-- month, whatever the range, so the choice does not depend on the range asked for.
CREATE OR REPLACE MACRO summary_periods(of_stream, first_start, last_start, of_venues) AS TABLE
WITH periods AS (
  SELECT venue_id, metric, period_start, period_end, value
  FROM summary_values
  WHERE stream = of_stream
    AND (first_start IS NULL OR period_start >= first_start)
    AND (last_start IS NULL OR period_start <= last_start)
    AND (of_venues IS NULL OR list_contains(of_venues, venue_id::VARCHAR))
),
months AS (
  SELECT p.venue_id, p.metric, p.period_start, p.period_end, any_value(p.value) AS value,
         count(d.period_start) = date_diff('day', p.period_start, p.period_end) + 1 AS all_days_held
  FROM periods AS p
  LEFT JOIN summary_values AS d
    ON d.stream = of_stream AND d.venue_id = p.venue_id AND d.metric = p.metric
   AND d.period_end = d.period_start AND d.period_start BETWEEN p.period_start AND p.period_end
  WHERE p.period_end > p.period_start
  GROUP BY p.venue_id, p.metric, p.period_start, p.period_end
),
counted_months AS (
  SELECT venue_id, metric, period_start, period_end, value FROM months WHERE NOT all_days_held
)
SELECT d.venue_id, d.metric, d.period_start, d.period_end, d.value
FROM periods AS d
WHERE d.period_end = d.period_start
  AND NOT EXISTS (SELECT 1 FROM counted_months AS m
                  WHERE m.venue_id = d.venue_id AND m.metric = d.metric
                    AND d.period_start BETWEEN m.period_start AND m.period_end)
UNION ALL
SELECT * FROM counted_months;
