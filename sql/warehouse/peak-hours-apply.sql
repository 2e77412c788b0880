-- After the write, in its transaction: the rollup changed by what it deleted (counted negatively)
-- and wrote. Counts and sums add up, so the rows of the keys a write touched are merged with its
-- changes, and a row left without instances goes. Reading series_points again for the months a
-- round touched (the first design) cost 200 ms a round of 1,000 hour windows, growing with the
-- month; this reads only the write's own points and the rollup's rows of its months.
--
-- The earliest instant and UTC month changed, as constants (variables), so that the rollup's
-- scans below skip the row groups of earlier months by their min/max.
SET VARIABLE peak_hours_since = (SELECT coalesce(min(ts), 'infinity'::TIMESTAMPTZ) FROM (SELECT ts FROM peak_hours_old UNION ALL SELECT ts FROM peak_hours_new));

SET VARIABLE peak_hours_month_since = date_trunc('month', timezone('UTC', getvariable('peak_hours_since')))::DATE;

-- Instances (one venue, metric and timestamp; unknown when a point is) before and after. The
-- points written are their own instances: a round's staged rows hold no key twice (series-round.ts
-- refuses or drops repeats); the points deleted may (written by hand), so they are grouped.
CREATE OR REPLACE TEMP TABLE peak_hours_slot_changes AS
WITH instances AS (
  SELECT venue_id, pair, ts, -1 AS sign, CASE WHEN count(value) = count(*) THEN sum(value) END AS value
  FROM peak_hours_old
  GROUP BY venue_id, pair, ts
  UNION ALL
  SELECT venue_id, pair, ts, 1, value FROM peak_hours_new
)
SELECT venue_id, pair,
       date_trunc('month', timezone('UTC', ts))::DATE AS month,
       ((floor(epoch_us(ts) / 1000000)::BIGINT + 259200) % 604800 + 604800) % 604800 AS week_second,
       sum(sign) AS instances, sum(sign) FILTER (WHERE value IS NOT NULL) AS known, sum(sign * value) AS total
FROM instances
GROUP BY ALL;

-- One MERGE reads the rollup once (a merged copy, a DELETE and an INSERT read it twice: 170 ms
-- a round of 1,000 hour windows against ~100 ms).
MERGE INTO peak_hour_slots s
USING (SELECT * FROM peak_hours_slot_changes WHERE month >= getvariable('peak_hours_month_since')) c
   ON c.venue_id = s.venue_id AND c.pair = s.pair AND c.month = s.month AND c.week_second = s.week_second
  AND s.month >= getvariable('peak_hours_month_since')
WHEN MATCHED AND s.instances + c.instances = 0 THEN DELETE
WHEN MATCHED THEN UPDATE SET
  instances = s.instances + c.instances,
  known = s.known + coalesce(c.known, 0),
  total = CASE WHEN s.known + coalesce(c.known, 0) > 0 THEN coalesce(s.total, 0) + coalesce(c.total, 0) END
WHEN NOT MATCHED AND c.instances > 0 THEN INSERT VALUES (c.venue_id, c.pair, c.month, c.week_second, c.instances, coalesce(c.known, 0),
  CASE WHEN coalesce(c.known, 0) > 0 THEN c.total END);

-- The totals per metric and timestamp: points count one by one.
MERGE INTO peak_hour_totals t
USING (
  SELECT pair, ts, sum(points) AS points, sum(known) AS known, sum(total) AS total
  FROM (
    SELECT pair, ts, -count(*) AS points, -count(value) AS known, -coalesce(sum(value), 0) AS total FROM peak_hours_old GROUP BY pair, ts
    UNION ALL
    SELECT pair, ts, count(*), count(value), coalesce(sum(value), 0) FROM peak_hours_new GROUP BY pair, ts
  )
  GROUP BY pair, ts
) c
   ON c.pair = t.pair AND c.ts = t.ts AND t.ts >= getvariable('peak_hours_since')
WHEN MATCHED AND t.points + c.points = 0 THEN DELETE
WHEN MATCHED THEN UPDATE SET points = t.points + c.points, known = t.known + c.known, total = t.total + c.total
WHEN NOT MATCHED AND c.points > 0 THEN INSERT VALUES (c.pair, c.ts, c.points, c.known, c.total);
