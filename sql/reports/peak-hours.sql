-- Busiest hours: average and share per hour of day and weekday, per venue and for all venues, in a time zone
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE tz        = 'Europe/Berlin';       -- IANA zone of the hours and weekdays (default 'UTC')
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive, in tz
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive, in tz
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--   SET VARIABLE metrics   = ['venue-devices-history/detected'];  -- VARCHAR[] of stream/metric (the dashboard's one)
--
-- Parquet months read: series_points from from_date - 1 day to to_date + 1 day
--   With --parquet, only the month partitions of these days are opened
--   (src/readside/months-read.ts); a day in tz lies within the UTC days either side of it, which
--   may be in another UTC month.
--
-- Reads the hour grain only (sync.historyGrain "hour"); timestamps stay UTC in the warehouse and
-- are turned into local hours here. The additive counts only: detected, authenticated, logins,
-- embeds, rates-count (unique-* counts are not additive across venues or hours, rates-average is
-- an average). One row per venue ('all' = the venues summed hour by hour), metric, weekday (ISO:
-- 1 = Monday … 7 = Sunday; NULL = every day of the week) and local hour (0-23):
--   hours   — how many such local hours are loaded (a daylight-saving day has 23 or 25);
--   average — their mean value (NULL values, unknown, are left out);
--   share   — the hour's part of its weekday's total (or of the whole week's, for weekday NULL):
--             the shares of one venue, metric and weekday add up to 1.
--
-- How it reads (docs/commands.md, "How peak-hours reads"): the warehouse keeps a rollup of the hour points
-- (sql/migrations/009_peak_hours_rollup.sql) per venue, metric, UTC month and UTC second of the
-- week, and per metric and hour across venues. A UTC month whose offset in tz does not change
-- (from two days before it to two days after) maps each second of the week to one local weekday
-- and hour, so such a month is read from the rollup: whole when the range holds all of it; when
-- it holds most of it, the rollup less the points of the rest (counts and sums subtract); else
-- its points in the range. The other months (a daylight-saving change in tz) are read as points.
-- 'all' is read from the totals per hour. With venue_ids, on --parquet and on a warehouse not
-- migrated yet, every point of the range is read, as before. This first statement decides which
-- months go which way, into the variable peak_hours_plan: rolled (month, offset in seconds) and
-- raw (UTC ranges of points to read, sign -1 for the ones subtracted), sorted.
SET VARIABLE peak_hours_plan = (
  WITH bounds AS (
    SELECT coalesce(getvariable('tz'), 'UTC') AS tz,
           getvariable('from_date') AS from_date,
           getvariable('to_date') AS to_date,
           coalesce(timezone('UTC', (getvariable('from_date') - 1)::TIMESTAMP), '-infinity'::TIMESTAMPTZ) AS scan_from,
           coalesce(timezone('UTC', (getvariable('to_date') + 2)::TIMESTAMP), 'infinity'::TIMESTAMPTZ) AS scan_to,
           peak_hours_rolled_up() AND getvariable('venue_ids') IS NULL AS rolled_up
  ),
  months AS (
    -- The UTC months holding hour points (of any venue) in the range: a look at the totals.
    SELECT DISTINCT date_trunc('month', timezone('UTC', t.ts))::DATE AS month
    FROM peak_hour_totals t, bounds b
    WHERE b.rolled_up AND t.ts >= b.scan_from AND t.ts < b.scan_to
  ),
  spans AS (
    SELECT month, timezone('UTC', month::TIMESTAMP) AS m_from, timezone('UTC', (month + INTERVAL 1 MONTH)::TIMESTAMP) AS m_to
    FROM months
  ),
  offsets AS (
    -- The zone's offset at every hour from two days before the month to two days after: the same
    -- everywhere, no instant of the month shares its local hour with an instant of another month
    -- (offsets differ by less than 48 hours), and none is ambiguous.
    SELECT s.month,
           min(epoch(timezone(b.tz, h.h)) - epoch(h.h))::BIGINT AS lo_off,
           max(epoch(timezone(b.tz, h.h)) - epoch(h.h))::BIGINT AS hi_off
    FROM spans s, bounds b, unnest(generate_series(s.m_from - to_hours(48), s.m_to + to_hours(48), INTERVAL 1 HOUR)) AS h(h)
    GROUP BY s.month
  ),
  classified AS (
    -- in_from, in_to: the instants of the month whose local day is in the range (offset constant).
    SELECT s.month, s.m_from, s.m_to, o.lo_off = o.hi_off AS constant, o.lo_off AS off,
           greatest(s.m_from, CASE WHEN b.from_date IS NULL THEN s.m_from ELSE timezone('UTC', b.from_date::TIMESTAMP) - to_seconds(o.lo_off) END) AS in_from,
           least(s.m_to, CASE WHEN b.to_date IS NULL THEN s.m_to ELSE timezone('UTC', (b.to_date + 1)::TIMESTAMP) - to_seconds(o.lo_off) END) AS in_to,
           greatest(s.m_from, b.scan_from) AS scan_from,
           least(s.m_to, b.scan_to) AS scan_to
    FROM spans s JOIN offsets o USING (month), bounds b
  ),
  chosen AS (
    SELECT *,
           CASE WHEN NOT constant THEN 'points'
                WHEN in_from >= in_to THEN 'none'
                WHEN in_from = m_from AND in_to = m_to THEN 'rolled'
                WHEN epoch(in_to) - epoch(in_from) > epoch(m_to) - epoch(m_from) - (epoch(in_to) - epoch(in_from)) THEN 'rolled less points'
                ELSE 'points in range' END AS way
    FROM classified
  ),
  ranges AS (
    SELECT scan_from AS lo, scan_to AS hi, 1 AS sign FROM chosen WHERE way = 'points' AND scan_from < scan_to
    UNION ALL SELECT in_from, in_to, 1 FROM chosen WHERE way = 'points in range'
    UNION ALL SELECT m_from, in_from, -1 FROM chosen WHERE way = 'rolled less points' AND m_from < in_from
    UNION ALL SELECT in_to, m_to, -1 FROM chosen WHERE way = 'rolled less points' AND in_to < m_to
    UNION ALL SELECT scan_from, scan_to, 1 FROM bounds WHERE NOT rolled_up
  )
  SELECT {'rolled_up': (SELECT rolled_up FROM bounds),
          'rolled': (SELECT list({'month': month, 'off': off}) FROM chosen WHERE way IN ('rolled', 'rolled less points')),
          'raw': (SELECT list({'lo': lo, 'hi': hi, 'sign': sign} ORDER BY lo) FROM ranges)}
);

WITH additive AS (
  SELECT * FROM additive_metrics()
  WHERE getvariable('metrics') IS NULL OR list_contains(getvariable('metrics'), stream || '/' || metric)
),
-- The groupings below are keyed by the venue's UUID (16 bytes) and the pair's number instead of
-- a text venue, stream and metric: the names are put back on the result only, which has a few
-- rows per venue, metric and hour instead of one per point. Bench B11 times it beside its
-- earlier text.
--
-- The points of the plan's raw ranges: one scan per range, bounded by constants (the variable),
-- so that each skips row groups by their min/max (an OR of the ranges in one scan reads every
-- row group: 0.86 s against 0.04 s on 29M rows). Ranges beyond the third are read by a fourth
-- scan from the fourth range's start to the last one's end.
points AS (
  SELECT sp.venue_id, a.pair, sp.ts, sp.value
  FROM series_points sp JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
    AND sp.ts >= getvariable('peak_hours_plan').raw[1].lo AND sp.ts < getvariable('peak_hours_plan').raw[1].hi
  UNION ALL
  SELECT sp.venue_id, a.pair, sp.ts, sp.value
  FROM series_points sp JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
    AND sp.ts >= getvariable('peak_hours_plan').raw[2].lo AND sp.ts < getvariable('peak_hours_plan').raw[2].hi
  UNION ALL
  SELECT sp.venue_id, a.pair, sp.ts, sp.value
  FROM series_points sp JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
    AND sp.ts >= getvariable('peak_hours_plan').raw[3].lo AND sp.ts < getvariable('peak_hours_plan').raw[3].hi
  UNION ALL
  SELECT sp.venue_id, a.pair, sp.ts, sp.value
  FROM series_points sp JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
    AND sp.ts >= getvariable('peak_hours_plan').raw[4].lo AND sp.ts < getvariable('peak_hours_plan').raw[-1].hi
),
ranges AS (
  SELECT unnest(getvariable('peak_hours_plan').raw, recursive := true)
),
local_hours AS (
  -- The zone's rules depend on the instant alone: each distinct hour is converted once (8,760 a
  -- year), not each point (5,000 venues x 5 metrics as many times), and joined back. ambiguous:
  -- a local hour two instants fall in (the hour repeated when daylight saving ends). sign: -1
  -- for the points subtracted from a month's rollup.
  SELECT ts, local_ts, sign, count(*) OVER (PARTITION BY local_ts) > 1 AS ambiguous
  FROM (SELECT d.ts, timezone(coalesce(getvariable('tz'), 'UTC'), d.ts) AS local_ts, r.sign
        FROM (SELECT DISTINCT ts FROM points) d
        JOIN ranges r ON d.ts >= r.lo AND d.ts < r.hi)
),
-- One value per venue and local hour (an instance): the sum of its points, unknown when any is
-- NULL. Almost every instance is one point, and grouping every point by venue, metric and local
-- hour to find the few that are not was most of the report (one group per point). An instance
-- has more than one point only when a key repeats (series_points has no primary key:
-- series-duplicate-keys) or when its local hour is ambiguous; a repeated key is found with one
-- group per venue, metric and UTC day (24 times fewer), as series-duplicate-keys does: a day
-- whose points outnumber the distinct hours they fall in (a 64-bit hash collision only merges
-- days, which keeps that true). Only the points of those days and ambiguous hours are grouped;
-- the rest are their own instance. 300 venues x 120 days of hours (4.3M points): 2.5 s of CPU ->
-- 1.6-1.7 s; test/readside/scan-rewrites.test.ts compares it with the earlier text.
repeated_days AS (
  SELECT hash(venue_id, pair, floor(epoch_us(ts) / 86400000000)::BIGINT) AS day_hash
  FROM points
  GROUP BY day_hash
  HAVING count(*) > bit_count(bit_or(1::BIGINT << ((epoch_us(ts) - floor(epoch_us(ts) / 86400000000)::BIGINT * 86400000000) // 3600000000)::INTEGER))
),
located AS (
  -- The subtracted points are outside the range by construction: no day to check.
  SELECT p.venue_id, p.pair, l.local_ts, l.sign, p.value,
         l.ambiguous OR hash(p.venue_id, p.pair, floor(epoch_us(p.ts) / 86400000000)::BIGINT) IN (SELECT day_hash FROM repeated_days) AS shared
  FROM points p
  JOIN local_hours l ON l.ts = p.ts
  WHERE l.sign = -1
     OR ((getvariable('from_date') IS NULL OR l.local_ts::DATE >= getvariable('from_date'))
         AND (getvariable('to_date') IS NULL OR l.local_ts::DATE <= getvariable('to_date')))
),
venue_instances AS (
  SELECT venue_id, pair, local_ts, sign, value FROM located WHERE NOT shared
  UNION ALL
  SELECT venue_id, pair, local_ts, sign, CASE WHEN count(value) = count(*) THEN sum(value) END
  FROM located WHERE shared
  GROUP BY venue_id, pair, local_ts, sign
),
rolled_months AS (
  SELECT unnest(getvariable('peak_hours_plan').rolled, recursive := true)
),
rolled_slots AS (
  -- A second of the week in the local week: the month's offset added, modulo a week.
  SELECT s.venue_id, s.pair, s.instances, s.known, s.total,
         ((s.week_second + m.off) % 604800 + 604800) % 604800 AS local_second
  FROM peak_hour_slots s JOIN rolled_months m ON m.month = s.month
  WHERE s.pair IN (SELECT pair FROM additive)
),
-- 'all': the venues' sum, hour by hour, unknown when a venue's point is: from the totals per
-- metric and hour when the rollup is read, else from the points.
all_instances AS (
  SELECT pair, local_ts, CASE WHEN sum(known) = sum(points) THEN sum(total) END AS value
  FROM (SELECT pair, timezone(coalesce(getvariable('tz'), 'UTC'), ts) AS local_ts, points, known, total
        FROM peak_hour_totals
        WHERE getvariable('peak_hours_plan').rolled_up AND pair IN (SELECT pair FROM additive)
          AND (getvariable('from_date') IS NULL OR ts >= timezone('UTC', (getvariable('from_date') - 1)::TIMESTAMP))
          AND (getvariable('to_date') IS NULL OR ts < timezone('UTC', (getvariable('to_date') + 2)::TIMESTAMP)))
  WHERE (getvariable('from_date') IS NULL OR local_ts::DATE >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR local_ts::DATE <= getvariable('to_date'))
  GROUP BY pair, local_ts
  UNION ALL
  SELECT pair, local_ts, CASE WHEN count(value) = count(*) THEN sum(value) END
  FROM located
  WHERE NOT getvariable('peak_hours_plan').rolled_up
  GROUP BY pair, local_ts
),
-- Per venue (or 'all'), metric and local hour of the week (0 = Monday 00:00 … 167): instances
-- (hours), known ones and their sum, from each source; the subtracted points count negatively.
-- One grouping of all three, keyed by one number for the weekday and hour.
contributions AS (
  SELECT venue_id, 0 AS all_venues, pair, (isodow(local_ts) - 1) * 24 + hour(local_ts) AS week_hour,
         sign AS hours, CASE WHEN value IS NOT NULL THEN sign END AS known, sign * value AS total
  FROM venue_instances
  UNION ALL
  SELECT venue_id, 0, pair, local_second // 3600, instances, known, total
  FROM rolled_slots
  UNION ALL
  SELECT NULL, 1, pair, (isodow(local_ts) - 1) * 24 + hour(local_ts), 1, CASE WHEN value IS NOT NULL THEN 1 END, value
  FROM all_instances
),
week_slots AS (
  SELECT venue_id, all_venues, pair, week_hour, sum(hours) AS hours, sum(known) AS known, sum(total) AS total
  FROM contributions
  GROUP BY venue_id, all_venues, pair, week_hour
  HAVING sum(hours) > 0
),
slots AS (
  -- every_day: the hour over the whole week, summed from the week's slots (168 a venue and metric).
  SELECT venue_id, all_venues, pair, week_hour // 24 + 1 AS weekday_all, week_hour % 24 AS hour, hours, known, total, 0 AS every_day
  FROM week_slots
  UNION ALL
  SELECT venue_id, all_venues, pair, NULL, week_hour % 24, sum(hours), sum(known), sum(total), 1
  FROM week_slots
  GROUP BY venue_id, all_venues, pair, week_hour % 24
),
valued AS (
  SELECT venue_id, all_venues, pair, weekday_all, hour, every_day, hours,
         CASE WHEN known > 0 THEN total / known END AS average,
         CASE WHEN known > 0 THEN total END AS total
  FROM slots
),
-- The share's whole: the weekday's total (or the week's, for every_day), one small grouping
-- joined back, where a window over every row partitioned it again (0.47 s of 2.2 s of CPU on
-- 1,000 venues).
wholes AS (
  SELECT venue_id, all_venues, pair, every_day, weekday_all, sum(total) AS whole
  FROM valued
  GROUP BY ALL
),
shared AS (
  SELECT v.*, v.total / nullif(w.whole, 0) AS part
  FROM valued v
  JOIN wholes w
    ON w.venue_id IS NOT DISTINCT FROM v.venue_id AND w.all_venues = v.all_venues AND w.pair = v.pair
   AND w.every_day = v.every_day AND w.weekday_all IS NOT DISTINCT FROM v.weekday_all
),
-- The result is ordered as the names sort: 'all' first, then venues by id (a UUID sorts as its
-- text does), metrics by stream and metric name (their rank here), weekday, hour — by numbers,
-- not by text; and each venue's label is looked up once, not once per row.
ranked AS (
  SELECT pair, stream, metric, row_number() OVER (ORDER BY stream, metric) AS rank FROM additive
),
labels AS (
  SELECT venue_id, venue_label(venue_id) AS venue FROM (SELECT DISTINCT venue_id FROM shared WHERE all_venues = 0)
)
SELECT CASE WHEN s.all_venues = 1 THEN venue_label('all') ELSE l.venue END AS venue,
       CASE WHEN s.all_venues = 1 THEN 'all' ELSE s.venue_id::VARCHAR END AS venue_id,
       a.stream,
       a.metric,
       s.weekday_all::INTEGER AS weekday,
       CASE WHEN s.every_day = 1 THEN NULL ELSE dayname(DATE '2024-01-07' + s.weekday_all::INTEGER) END AS weekday_name,
       s.hour::INTEGER AS hour,
       s.hours::INTEGER AS hours,
       round(s.average, 3) AS average,
       round(s.part, 4) AS share
FROM shared s
JOIN ranked a ON a.pair = s.pair
LEFT JOIN labels l ON l.venue_id = s.venue_id
ORDER BY s.all_venues DESC, s.venue_id, a.rank, s.weekday_all NULLS FIRST, s.hour;
