-- After the write, in its transaction: the totals changed by the delta (a timestamp left without
-- points goes), and the slots of the affected venues, metrics and months computed again from
-- series_points as they now are (a venue's month is ~3,700 hour points a metric: exact whatever
-- the points, repeated keys included, for the cost of reading the month the round touched).
CREATE OR REPLACE TEMP TABLE peak_hours_merged AS
SELECT pair, ts, sum(points) AS points, sum(known) AS known, sum(total) AS total
FROM (
  SELECT t.* FROM peak_hour_totals t SEMI JOIN (SELECT DISTINCT pair, ts FROM peak_hours_delta) d ON d.pair = t.pair AND d.ts = t.ts
  UNION ALL
  SELECT * FROM peak_hours_delta
)
GROUP BY pair, ts;

DELETE FROM peak_hour_totals t USING peak_hours_merged m WHERE t.pair = m.pair AND t.ts = m.ts;

INSERT INTO peak_hour_totals SELECT pair, ts, points, known, total FROM peak_hours_merged WHERE points > 0;

DELETE FROM peak_hour_slots r USING (SELECT DISTINCT * FROM peak_hours_affected) a
WHERE r.venue_id = a.venue_id AND r.pair = a.pair AND r.month = a.month;

INSERT INTO peak_hour_slots
WITH affected AS (
  SELECT DISTINCT venue_id, pair, month,
         timezone('UTC', month::TIMESTAMP) AS ts_from,
         timezone('UTC', (month + INTERVAL 1 MONTH)::TIMESTAMP) AS ts_to
  FROM peak_hours_affected
),
instances AS (
  SELECT sp.venue_id, f.pair, f.month, sp.ts, CASE WHEN count(sp.value) = count(*) THEN sum(sp.value) END AS value
  FROM series_points sp
  JOIN additive_metrics() a ON a.stream = sp.stream AND a.metric = sp.metric
  JOIN affected f ON f.venue_id = sp.venue_id AND f.pair = a.pair AND sp.ts >= f.ts_from AND sp.ts < f.ts_to
  WHERE sp.granularity = 'hour'
  GROUP BY sp.venue_id, f.pair, f.month, sp.ts
)
SELECT venue_id, pair, month,
       ((floor(epoch_us(ts) / 1000000)::BIGINT + 259200) % 604800 + 604800) % 604800 AS week_second,
       count(*), count(value), sum(value)
FROM instances
GROUP BY ALL;
