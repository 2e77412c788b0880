-- BASELINE for bench B11 and test/readside/scan-rewrites.test.ts: this report as it read the raw
-- series_points before the series_daily rollup . Not run by venue-etl.
-- Duplicate keys in series_points: more than one row per venue, stream, metric, granularity and ts
--
-- The loader replaces whole windows and refuses batches with duplicate keys, and the table has
-- no PRIMARY KEY (it would make loading slower), so this check is the safety net. Empty = pass.
--
-- Two steps. First the candidate days: rows grouped by a 64-bit hash of venue, stream, metric,
-- granularity and UTC day (one fixed-size key, one group per series and day instead of one per
-- row: 6.7 times fewer groups with 120 days of hours), each group counting its rows and the
-- distinct hours of the day they fall in (a bit per hour). Two rows with the same ts fall in the
-- same hour, so a day holding a duplicate has more rows than bits (so has a day with two points
-- within one hour, which the next step drops); a hash collision only merges days, which keeps
-- that true. Then the exact keys of the candidate days, grouped as before: the result is that of
-- grouping every row. When there are no candidates, DuckDB skips the second scan.
-- 300 venues x 1 year with 120 days of hours (8.8M rows): 1.8-2.1 s of CPU -> 0.7-0.8 s, against
-- one group per row's hash; grouping the five columns themselves was slower still.
WITH slots AS (
  SELECT hash(venue_id, stream, metric, granularity, floor(epoch_us(ts) / 86400000000)::BIGINT) AS day_hash,
         ((epoch_us(ts) - floor(epoch_us(ts) / 86400000000)::BIGINT * 86400000000) // 3600000000)::INTEGER AS hour_of_day
  FROM series_points
),
candidates AS (
  SELECT day_hash
  FROM slots
  GROUP BY day_hash
  HAVING count(*) > bit_count(bit_or(1::BIGINT << hour_of_day))
)
SELECT venue_id, stream, metric, granularity, ts, count(*) AS copies
FROM series_points
WHERE hash(venue_id, stream, metric, granularity, floor(epoch_us(ts) / 86400000000)::BIGINT) IN (SELECT day_hash FROM candidates)
GROUP BY venue_id, stream, metric, granularity, ts
HAVING count(*) > 1
ORDER BY stream, venue_id, metric, granularity, ts;
