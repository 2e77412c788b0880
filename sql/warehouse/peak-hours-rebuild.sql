-- The peak-hours rollup (sql/migrations/009_peak_hours_rollup.sql) computed again from every
-- hour point: for series_points written outside venue-etl (by hand in the DuckDB CLI, a test's
-- fixture, a benchmark's generated data), which no load round or reset has accounted for. Runs
-- as it is; the same statements as the migration's.
DELETE FROM peak_hour_slots;
DELETE FROM peak_hour_totals;

INSERT INTO peak_hour_slots
WITH additive AS (SELECT * FROM additive_metrics()),
instances AS (
  SELECT sp.venue_id, a.pair, sp.ts, CASE WHEN count(sp.value) = count(*) THEN sum(sp.value) END AS value
  FROM series_points sp
  JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
  GROUP BY sp.venue_id, a.pair, sp.ts
)
SELECT venue_id, pair,
       date_trunc('month', timezone('UTC', ts))::DATE AS month,
       ((floor(epoch_us(ts) / 1000000)::BIGINT + 259200) % 604800 + 604800) % 604800 AS week_second,
       count(*), count(value), sum(value)
FROM instances
GROUP BY ALL;

INSERT INTO peak_hour_totals
SELECT a.pair, sp.ts, count(*), count(sp.value), coalesce(sum(sp.value), 0)
FROM series_points sp
JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
WHERE sp.granularity = 'hour'
GROUP BY a.pair, sp.ts;
