-- Duplicate keys in summary_values: more than one row per venue, stream, metric and period
--
-- The period is (period_start, period_end): a day row and a month row starting the same day are
-- different periods, not duplicates. Empty result = pass.
--
-- Two steps, as series-duplicate-keys: keys whose 64-bit hash occurs more than once (one
-- fixed-size group key instead of five columns, two of them text), then the exact keys among
-- those candidates; a hash collision only adds a candidate, which the exact GROUP BY drops. With
-- no candidates DuckDB skips the second scan. 300 venues x 1 year (1.0M rows): 0.28 s of CPU ->
-- 0.19 s.
WITH candidates AS (
  SELECT hash(venue_id, stream, metric, period_start, period_end) AS key_hash
  FROM summary_values
  GROUP BY key_hash
  HAVING count(*) > 1
)
SELECT venue_id, stream, metric, period_start, period_end, count(*) AS copies
FROM summary_values
WHERE hash(venue_id, stream, metric, period_start, period_end) IN (SELECT key_hash FROM candidates)
GROUP BY venue_id, stream, metric, period_start, period_end
HAVING count(*) > 1
ORDER BY stream, venue_id, metric, period_start, period_end;
