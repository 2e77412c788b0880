-- Busiest hours: average and share per hour of day and weekday, per venue and for all venues, in a time zone
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE tz        = 'Europe/Berlin';       -- IANA zone of the hours and weekdays (default 'UTC')
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive, in tz
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive, in tz
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
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
WITH additive AS (SELECT * FROM additive_metrics()),
-- The groupings below are keyed by the venue's UUID (16 bytes) and the pair's number instead of
-- a text venue, stream and metric: the names are put back on the result only, which has a few
-- rows per venue, metric and hour instead of one per point. Bench B11 times it beside its
-- earlier text.
points AS (
  SELECT sp.venue_id, a.pair, sp.ts, sp.value
  FROM series_points sp
  JOIN additive a ON a.stream = sp.stream AND a.metric = sp.metric
  WHERE sp.granularity = 'hour'
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), sp.venue_id::VARCHAR))
    -- A day in tz lies within the UTC days either side of it (offsets are under a day): bounds on
    -- ts itself let the scan skip row groups by their min/max, before any conversion.
    AND (getvariable('from_date') IS NULL OR sp.ts >= timezone('UTC', (getvariable('from_date') - 1)::TIMESTAMP))
    AND (getvariable('to_date') IS NULL OR sp.ts < timezone('UTC', (getvariable('to_date') + 2)::TIMESTAMP))
),
local_hours AS (
  -- The zone's rules depend on the instant alone: each distinct hour is converted once (8,760 a
  -- year), not each point (5,000 venues x 5 metrics as many times), and joined back. ambiguous:
  -- a local hour two instants fall in (the hour repeated when daylight saving ends).
  SELECT ts, local_ts, count(*) OVER (PARTITION BY local_ts) > 1 AS ambiguous
  FROM (SELECT ts, timezone(coalesce(getvariable('tz'), 'UTC'), ts) AS local_ts FROM (SELECT DISTINCT ts FROM points))
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
  SELECT p.venue_id, p.pair, l.local_ts, p.value,
         l.ambiguous OR hash(p.venue_id, p.pair, floor(epoch_us(p.ts) / 86400000000)::BIGINT) IN (SELECT day_hash FROM repeated_days) AS shared
  FROM points p
  JOIN local_hours l ON l.ts = p.ts
  WHERE (getvariable('from_date') IS NULL OR l.local_ts::DATE >= getvariable('from_date'))
    AND (getvariable('to_date') IS NULL OR l.local_ts::DATE <= getvariable('to_date'))
),
instances AS (
  -- all_venues: the venues' sum, hour by hour.
  SELECT venue_id, 0 AS all_venues, pair, local_ts, value FROM located WHERE NOT shared
  UNION ALL
  SELECT venue_id, 0 AS all_venues, pair, local_ts, CASE WHEN count(value) = count(*) THEN sum(value) END
  FROM located WHERE shared
  GROUP BY venue_id, pair, local_ts
  UNION ALL
  SELECT NULL AS venue_id, 1 AS all_venues, pair, local_ts, CASE WHEN count(value) = count(*) THEN sum(value) END
  FROM located
  GROUP BY pair, local_ts
),
slots AS (
  SELECT venue_id, all_venues, pair,
         isodow(local_ts) AS weekday_all, hour(local_ts) AS hour,
         count(*) AS hours, avg(value) AS average, sum(value) AS total,
         grouping(isodow(local_ts)) AS every_day
  FROM instances
  GROUP BY GROUPING SETS ((venue_id, all_venues, pair, isodow(local_ts), hour(local_ts)), (venue_id, all_venues, pair, hour(local_ts)))
),
named AS (
  SELECT CASE WHEN s.all_venues = 1 THEN 'all' ELSE s.venue_id::VARCHAR END AS venue_id,
         a.stream,
         a.metric,
         CASE WHEN s.every_day = 1 THEN NULL ELSE s.weekday_all END::INTEGER AS weekday,
         CASE WHEN s.every_day = 1 THEN NULL ELSE dayname(DATE '2024-01-07' + s.weekday_all::INTEGER) END AS weekday_name,
         s.hour::INTEGER AS hour,
         s.hours::INTEGER AS hours,
         round(s.average, 3) AS average,
         round(s.total / nullif(sum(s.total) OVER (PARTITION BY s.venue_id, s.all_venues, s.pair, s.every_day,
                                                              CASE WHEN s.every_day = 1 THEN NULL ELSE s.weekday_all END), 0), 4) AS share
  FROM slots s
  JOIN additive a ON a.pair = s.pair
)
SELECT venue_label(venue_id) AS venue, * FROM named
ORDER BY venue_id = 'all' DESC, venue_id, stream, metric, weekday NULLS FIRST, hour;
