/**
 * The small warehouse the read side's equality tests share (scan-rewrites, parquet-months): the
 * seeded one (fixture.ts) plus every case a rewrite or a pruning could get wrong — both grains of
 * a day, unknown values, a duplicate key, hours that do not add up, a partial day, a missing day,
 * a summary that disagrees, hours around both daylight-saving changes, points before 1970 — and,
 * on fixed dates, data on both sides of month edges (MONTH_EDGE_SQL).
 */
import { REBUILD_ROLLUP, runOnFile, seededWarehouse, utcDay, V1, V2 } from './fixture.js';

export const BOTH_GRAINS = utcDay(-7);
const PARTIAL = utcDay(-11);
const MISSING = utcDay(-20);
const DUPLICATE = utcDay(-3);
/** Daylight-saving changes in Europe and North America: days of 23 and 25 local hours. */
const DST_DAYS = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01'];

const HOSTILE_SQL: readonly string[] = [
  // V1 (day grain) gets this day's hours too, which do not add up to the day; one is unknown.
  `INSERT INTO series_points
     SELECT venue_id, stream, metric, 'hour', ts + to_hours(h.h::INTEGER),
            CASE WHEN h.h = 10 AND metric = 'logins' THEN NULL ELSE 1000 + h.h END, 'run-2', now()
       FROM series_points, range(24) h(h)
      WHERE venue_id = '${V1}' AND granularity = 'day' AND timezone('UTC', ts)::DATE = DATE '${BOTH_GRAINS}'`,
  // A duplicate key of each grain, an unknown day point.
  `INSERT INTO series_points SELECT * FROM series_points
      WHERE timezone('UTC', ts)::DATE = DATE '${DUPLICATE}' AND metric = 'embeds' AND (granularity = 'day' OR hour(ts) = 5)`,
  `UPDATE series_points SET value = NULL
      WHERE venue_id = '${V1}' AND metric = 'detected' AND timezone('UTC', ts)::DATE = DATE '${utcDay(-4)}'`,
  // V2 (hour grain): a day with 23 hours of one metric, a day missing from one stream.
  `DELETE FROM series_points
      WHERE venue_id = '${V2}' AND metric = 'detected' AND timezone('UTC', ts) = TIMESTAMP '${PARTIAL} 05:00:00'`,
  `DELETE FROM series_points WHERE venue_id = '${V2}' AND stream = 'venue-remarketing-history' AND timezone('UTC', ts)::DATE = DATE '${MISSING}'`,
  // Summaries that disagree with their series: a day and a month.
  `UPDATE summary_values SET value = value + 1
      WHERE venue_id = '${V2}' AND stream = 'venue-devices-summary' AND metric = 'detected' AND period_start = DATE '${utcDay(-5)}'`,
  `INSERT INTO summary_values VALUES ('${V1}', 'venue-users-summary', 'logins', DATE '2026-03-01', DATE '2026-03-31', 7, 'run-2', now())`,
  // Duplicate summary keys: that month row, a day row starting the same day, a recent day row.
  `INSERT INTO summary_values VALUES
     ('${V1}', 'venue-users-summary', 'logins', DATE '2026-03-01', DATE '2026-03-31', 7, 'run-2', now()),
     ('${V1}', 'venue-users-summary', 'logins', DATE '2026-03-01', DATE '2026-03-01', 2, 'run-2', now()),
     ('${V1}', 'venue-users-summary', 'logins', DATE '2026-03-01', DATE '2026-03-01', 2, 'run-2', now())`,
  `INSERT INTO summary_values SELECT * FROM summary_values
      WHERE venue_id = '${V2}' AND stream = 'rating-summary' AND period_start = DATE '${utcDay(-2)}'`,
  // Hours of both venues around the daylight-saving changes, and a day point on one of them.
  `INSERT INTO series_points
     SELECT v.venue_id, s.stream, s.metric, 'hour', timezone('UTC', d.day::TIMESTAMP + to_hours(h.h::INTEGER)),
            (hash(v.venue_id, s.metric, d.day, h.h) % 40)::DOUBLE, 'run-3', now()
       FROM (VALUES ('${V1}'::UUID), ('${V2}'::UUID)) v(venue_id),
            (VALUES ('venue-remarketing-history', 'embeds'), ('venue-devices-history', 'detected'), ('venue-users-history', 'logins'),
                    ('rating-history', 'rates-count')) s(stream, metric),
            (SELECT unnest([${DST_DAYS.map((d) => `DATE '${d}'`).join(', ')}]) AS day) d, range(24) h(h)`,
  `INSERT INTO series_points VALUES ('${V1}', 'venue-remarketing-history', 'embeds', 'day', TIMESTAMPTZ '2026-03-29 00:00:00+00', 3, 'run-3', now())`,
  // Points before 1970 (a day from the epoch is negative there) and on the last hour of a UTC day.
  `INSERT INTO series_points VALUES
     ('${V2}', 'venue-users-history', 'logins', 'day', TIMESTAMPTZ '1969-12-31 00:00:00+00', 4, 'run-4', now()),
     ('${V2}', 'venue-users-history', 'logins', 'hour', TIMESTAMPTZ '1969-12-31 23:00:00+00', 5, 'run-4', now()),
     ('${V2}', 'venue-remarketing-history', 'embeds', 'hour', TIMESTAMPTZ '1969-12-31 23:00:00+00', 6, 'run-4', now())`,
];

/** A third venue, with data only around month edges on fixed dates (whatever today is). */
export const V3 = '33333333-3333-4333-8333-333333333333';

/**
 * Rows a month pruning of `--parquet` would lose if it were too narrow: hours from 2026-10-30 to
 * 2026-11-02 (UTC; a day in a zone far from UTC starts or ends in the other month), days from
 * 2026-10-22 to 2026-11-10 (a 7-day window of early November reaches into October), and a summary period
 * from 2026-02-20 to 2026-03-19 whose day rows lie in two month partitions.
 */
const MONTH_EDGE_SQL: readonly string[] = [
  `CREATE TEMP TABLE edge_metrics AS SELECT * FROM (VALUES
     ('venue-devices-history', 'detected'), ('venue-devices-history', 'authenticated'), ('venue-users-history', 'logins'),
     ('venue-remarketing-history', 'embeds'), ('rating-history', 'rates-count')) t(stream, metric)`,
  `INSERT INTO series_points
     SELECT '${V3}', stream, metric, 'hour', TIMESTAMPTZ '2026-10-30 00:00:00+00' + to_hours(i::INTEGER), (hash(metric, i) % 30)::DOUBLE, 'run-5', now()
       FROM edge_metrics, range(96) r(i)`,
  `INSERT INTO series_points
     SELECT '${V3}', stream, metric, 'day', timezone('UTC', (DATE '2026-10-22' + i::INTEGER)::TIMESTAMP), (hash(metric, i) % 90)::DOUBLE, 'run-5', now()
       FROM edge_metrics, range(20) r(i)`,
  `INSERT INTO summary_values VALUES ('${V3}', 'venue-users-login-methods', 'email', DATE '2026-02-20', DATE '2026-03-19', 99, 'run-5', now())`,
  `INSERT INTO summary_values
     SELECT '${V3}', 'venue-users-login-methods', 'email', day::DATE, day::DATE, 3, 'run-5', now()
       FROM range(DATE '2026-02-20', DATE '2026-03-20', INTERVAL 1 DAY) r(day)`,
  // A summary period across the month edge that disagrees with its series days, one that agrees.
  `INSERT INTO summary_values
     SELECT '${V3}', 'venue-devices-summary', metric, DATE '2026-10-25', DATE '2026-11-03',
            sum(value) + CASE WHEN metric = 'detected' THEN 1 ELSE 0 END, 'run-5', now()
       FROM series_points
      WHERE venue_id = '${V3}' AND granularity = 'day' AND stream = 'venue-devices-history'
        AND ts >= TIMESTAMPTZ '2026-10-25 00:00:00+00' AND ts < TIMESTAMPTZ '2026-11-04 00:00:00+00'
      GROUP BY metric`,
  // Off the hour: a duplicate key at 12:30 and a single point at 12:45 (not a duplicate).
  `INSERT INTO series_points VALUES
     ('${V3}', 'venue-remarketing-history', 'embeds', 'hour', TIMESTAMPTZ '2026-10-31 12:30:00+00', 1, 'run-6', now()),
     ('${V3}', 'venue-remarketing-history', 'embeds', 'hour', TIMESTAMPTZ '2026-10-31 12:30:00+00', 1, 'run-6', now()),
     ('${V3}', 'venue-users-history', 'logins', 'hour', TIMESTAMPTZ '2026-10-31 12:45:00+00', 1, 'run-6', now())`,
];

export async function awkwardWarehouse(path: string): Promise<void> {
  await seededWarehouse(path);
  await runOnFile(path, [...HOSTILE_SQL, ...MONTH_EDGE_SQL, REBUILD_ROLLUP()]);
}
