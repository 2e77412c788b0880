-- The peak-hours rollup (sql/migrations/009_peak_hours_rollup.sql) computed again from every
-- hour point: for series_points written outside venue-etl (by hand in the DuckDB CLI, a test's
-- fixture, a benchmark's generated data), which no load round or reset has accounted for. Runs
-- as it is; the same statements as the migration's.
DELETE FROM peak_hour_slots;
DELETE FROM peak_hour_totals;

INSERT INTO peak_hour_slots
WITH points AS (
  SELECT sp.venue_id, a.pair, sp.ts, sp.value,
         hash(sp.venue_id, a.pair, floor(epoch_us(sp.ts) / 86400000000)::BIGINT) AS day_hash
  FROM series_points sp
  JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
),
-- An instance is one point unless its key repeats: as in sql/reports/peak-hours.sql, the days
-- whose points outnumber the hours they fall in are found with one group per venue, metric and
-- day, and only their points are grouped by timestamp (one group per point was most of the
-- build: 146M series rows, 72M of them additive hours, at 5,000 venues).
repeated_days AS (
  SELECT day_hash
  FROM points
  GROUP BY day_hash
  HAVING count(*) > bit_count(bit_or(1::BIGINT << ((epoch_us(ts) - floor(epoch_us(ts) / 86400000000)::BIGINT * 86400000000) // 3600000000)::INTEGER))
),
instances AS (
  SELECT venue_id, pair, ts, value FROM points WHERE day_hash NOT IN (SELECT day_hash FROM repeated_days)
  UNION ALL
  SELECT venue_id, pair, ts, CASE WHEN count(value) = count(*) THEN sum(value) END
  FROM points WHERE day_hash IN (SELECT day_hash FROM repeated_days)
  GROUP BY venue_id, pair, ts
)
SELECT venue_id, pair,
       date_trunc('month', timezone('UTC', ts))::DATE AS month,
       ((floor(epoch_us(ts) / 1000000)::BIGINT + 259200) % 604800 + 604800) % 604800 AS week_second,
       count(*), count(value), sum(value)
FROM instances
GROUP BY ALL
-- Month by month: a write's merge (peak-hours-apply.sql) then skips the row groups of other months.
ORDER BY month;

INSERT INTO peak_hour_totals
SELECT a.pair, sp.ts, count(*), count(sp.value), coalesce(sum(sp.value), 0)
FROM series_points sp
JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
WHERE sp.granularity = 'hour'
GROUP BY a.pair, sp.ts;
