-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
-- Additive summaries that disagree with the sum of their daily series over the same days (tolerance 0)
--
-- Parameters, as DuckDB variables:
--   SET VARIABLE consistency_tolerance = 0;          -- allowed absolute difference (default 0)
--
-- Only counts of events are compared: detected, authenticated, logins, rates. unique-* metrics
-- count distinct devices or users and are not additive across hours or days. A period is
-- compared only when the series has every one of its days loaded (missing days are the gap
-- check's business). A value the API sent as null is unknown, not 0: a period is compared only
-- when its summary value and every day of its series are known. Empty result = pass.
-- The pairs are joined by number: the series are grouped by venue, pair and day (no text keys),
-- and each summary period is turned into its days, joined by equality on the day. Joining the
-- periods to the series' days by a range (day BETWEEN period_start AND period_end) compared
-- every period with every day of its series. 300 venues x 1 year with 120 days of hours: 1.06 s
-- of CPU -> 0.79-0.87 s.
WITH pairs(pair, summary_stream, summary_metric, series_stream, series_metric) AS (
  VALUES (1, 'venue-devices-summary', 'detected', 'venue-devices-history', 'detected'),
         (2, 'venue-devices-summary', 'authenticated', 'venue-devices-history', 'authenticated'),
         (3, 'venue-users-summary', 'logins', 'venue-users-history', 'logins'),
         (4, 'rating-summary', 'rates_count', 'rating-history', 'rates-count')
),
series_days AS (
  -- Both grains of a day may be loaded (sync.historyGrain): the day's own point wins, its hours
  -- count only for a day loaded by the hour alone. sum() skips NULLs: a day with an unknown
  -- point has no known sum. One GROUP BY with FILTERed aggregates, as series_day_totals does
  -- (sql/migrations/003_report_macros.sql): picking the grain with a window over every point
  -- first (QUALIFY, then the pairs) took 5.7 s of the 15 s `check` on 200 venues x 1 year with
  -- 120 days of hours; this takes a fraction of it. The UTC day comes from the epoch (floor, so
  -- days before 1970 stay right): the same day as timezone('UTC', ts)::DATE at a tenth of the cost.
  SELECT sp.venue_id, p.pair,
         DATE '1970-01-01' + floor(epoch_us(sp.ts) / 86400000000)::INTEGER AS day,
         CASE WHEN bool_or(sp.granularity = 'day')
              THEN CASE WHEN count(sp.value) FILTER (WHERE sp.granularity = 'day') = count(*) FILTER (WHERE sp.granularity = 'day')
                        THEN sum(sp.value) FILTER (WHERE sp.granularity = 'day') END
              ELSE CASE WHEN count(sp.value) = count(*) THEN sum(sp.value) END
         END AS value
  FROM series_points sp
  JOIN pairs p ON p.series_stream = sp.stream AND p.series_metric = sp.metric
  GROUP BY sp.venue_id, p.pair, day
),
summary_days AS (
  -- Day periods are their own day; longer ones (months) are expanded to theirs.
  SELECT s.venue_id, s.stream, s.metric, s.period_start, s.period_end, s.value, p.pair, s.period_start AS day
  FROM summary_values s
  JOIN pairs p ON p.summary_stream = s.stream AND p.summary_metric = s.metric
  WHERE s.period_end = s.period_start
  UNION ALL
  SELECT s.venue_id, s.stream, s.metric, s.period_start, s.period_end, s.value, p.pair,
         unnest(generate_series(s.period_start::TIMESTAMP, s.period_end::TIMESTAMP, INTERVAL 1 DAY))::DATE AS day
  FROM summary_values s
  JOIN pairs p ON p.summary_stream = s.stream AND p.summary_metric = s.metric
  WHERE s.period_end > s.period_start
),
compared AS (
  SELECT s.venue_id, s.stream, s.metric, s.period_start, s.period_end,
         s.value AS summary_value,
         sum(d.value) AS series_value,
         count(d.value) AS series_days,
         (s.period_end - s.period_start + 1)::INTEGER AS period_days
  FROM summary_days s
  JOIN series_days d ON d.venue_id = s.venue_id AND d.pair = s.pair AND d.day = s.day
  GROUP BY s.venue_id, s.stream, s.metric, s.period_start, s.period_end, s.value, period_days
)
SELECT venue_id, stream, metric, period_start, period_end, summary_value, series_value,
       summary_value - series_value AS difference
FROM compared
WHERE series_days = period_days
  AND summary_value IS NOT NULL
  AND abs(summary_value - series_value) > coalesce(getvariable('consistency_tolerance'), 0)
ORDER BY stream, metric, venue_id, period_start;
