/**
 * The big warehouse of B11, generated in SQL (a backfill of 5,000 venues x 1 year through the API
 * would take hours): what a year of `sync` with the hour grain for recent history and the tiered
 * summary grain leaves behind.
 *
 *  - series_points: the 9 metrics of the 4 history streams at day grain for every day of the
 *    year, and at hour grain (24 points a day) for the most recent `hourDays` days. Where both
 *    grains are loaded the day point is the sum of its hours, so `check` passes.
 *  - summary_values: the 28 metrics of the 6 summary streams, day periods from the first day of
 *    the month the 92-day horizon starts in, month periods before it. The additive metrics the
 *    summary-vs-series check compares equal the sum of their series days.
 *  - venues, accounts, venue and project roles (with closed versions), cursors at yesterday for
 *    every stream and venue, 400 runs and a few failed slices of an older run.
 *
 * Rows go in the order a backfill commits them: window by window (31 days, oldest first), venue
 * by venue, stream, metric, time; each grain of a window is a slice of its own.
 */
import { addDays } from '../src/calendar/index.js';
import { openWarehouse, rebuildPeakHours, type Session } from '../src/warehouse/index.js';
import { SERIES_METRICS } from './series-metrics.js';
import { sql } from '../src/warehouse/sql-files.js';

export interface BigWarehouseOptions {
  readonly venues: number;
  /** Days of history (day grain). */
  readonly days: number;
  /** The most recent days also held at hour grain. */
  readonly hourDays: number;
  /** The last day held (yesterday for a warehouse whose cursors are current). */
  readonly lastDay: string;
  /** DuckDB's memory_limit while generating (default 6GB). */
  readonly memoryLimit?: string;
}

export interface BigWarehouseRows {
  readonly seriesRows: number;
  readonly summaryRows: number;
  /** series_daily rows, summed once at the end as migration 008 fills it, and the time that took. */
  readonly rollupRows: number;
  readonly rollupMs: number;
  /** Building the peak-hours rollup from the generated hours (a sync keeps it round by round). */
  readonly peakHoursRollupMs: number;
}

/** Day summaries for the most recent days, months before (the tiered default). */
export const SUMMARY_DAY_HORIZON = 92;
const WINDOW_DAYS = 31;

/** Summary metric, and the series day totals it equals (NULL: a value of its own). */
const SUMMARIES = `VALUES
  ('venue-devices-summary', 'detected', 'venue-devices-history', 'detected'),
  ('venue-devices-summary', 'unique-detected', NULL, NULL),
  ('venue-devices-summary', 'unique-authenticated', NULL, NULL),
  ('venue-devices-summary', 'authenticated', 'venue-devices-history', 'authenticated'),
  ('venue-users-login-methods', 'email', NULL, NULL), ('venue-users-login-methods', 'phone', NULL, NULL),
  ('venue-users-login-methods', 'autologin', NULL, NULL), ('venue-users-login-methods', 'social-a', NULL, NULL),
  ('venue-users-login-methods', 'social-b', NULL, NULL), ('venue-users-login-methods', 'social-c', NULL, NULL),
  ('venue-users-login-methods', 'social-d', NULL, NULL),
  ('venue-users-status', 'inactive', NULL, NULL), ('venue-users-status', 'active', NULL, NULL),
  ('venue-users-summary', 'logins', 'venue-users-history', 'logins'),
  ('venue-users-summary', 'unique-logins', NULL, NULL), ('venue-users-summary', 'confirmed-users', NULL, NULL),
  ('venue-users-summary', 'returning-users', NULL, NULL),
  ('rating-summary', 'rates_count', 'rating-history', 'rates-count'), ('rating-summary', 'average_rate', NULL, NULL),
  ('rating-summary', 'rates_per_value.1', NULL, NULL), ('rating-summary', 'rates_per_value.2', NULL, NULL),
  ('rating-summary', 'rates_per_value.3', NULL, NULL), ('rating-summary', 'rates_per_value.4', NULL, NULL),
  ('rating-summary', 'rates_per_value.5', NULL, NULL),
  ('rating-statistics-summaries', 'requests-commented', NULL, NULL), ('rating-statistics-summaries', 'requests-sent', NULL, NULL),
  ('rating-statistics-summaries', 'requests-opened', NULL, NULL), ('rating-statistics-summaries', 'requests-rated', NULL, NULL)`;

const STREAMS = [
  'venue-devices-history',
  'venue-users-history',
  'venue-remarketing-history',
  'rating-history',
  'venue-devices-summary',
  'venue-users-login-methods',
  'venue-users-status',
  'venue-users-summary',
  'rating-summary',
  'rating-statistics-summaries',
  'venue-roles',
];

const RUN = 'bench-big-backfill';
const utc = (day: string) => `TIMESTAMPTZ '${day} 00:00:00+00'`;

export async function generateBigWarehouse(path: string, options: BigWarehouseOptions): Promise<BigWarehouseRows> {
  const { venues, days, hourDays, lastDay } = options;
  const firstDay = addDays(lastDay, -(days - 1));
  const firstHourDay = addDays(lastDay, -(hourDays - 1));
  const warehouse = await openWarehouse(path);
  let seriesRows = 0;
  let summaryRows = 0;
  try {
    const write = (work: (session: Session) => Promise<number>) => warehouse.transaction(work, 'generating benchmark data');
    await write(async (session) => {
      // 5,000 venues took 12 GB of RSS with DuckDB's defaults: bounded, on the 2 cores the bench has.
      await session.run(`SET memory_limit = '${options.memoryLimit ?? '6GB'}'`);
      await session.run('SET threads = 2');
      await session.run(`CREATE TABLE IF NOT EXISTS bench_venues AS
        SELECT v, ('6f1c1a52-0000-4000-8000-' || lpad(to_hex(v), 12, '0'))::UUID AS venue_id FROM range(${venues}) t(v)`);
      await session.run(`CREATE TABLE IF NOT EXISTS bench_series AS SELECT * FROM (${SERIES_METRICS}) s(stream, metric)`);
      return 0;
    });
    for (let start = firstDay; start <= lastDay; start = addDays(start, WINDOW_DAYS)) {
      const end = [addDays(start, WINDOW_DAYS - 1), lastDay].sort()[0]!;
      const hourStart = start < firstHourDay ? firstHourDay : start;
      seriesRows += await write(async (session) => {
        let rows = 0;
        if (hourStart <= end) {
          // Hour slices of the window first, then its day slices (each grain is a window of its own).
          rows += await session.run(`INSERT INTO series_points
            SELECT venue_id, stream, metric, 'hour', ts,
                   (hash(venue_id, metric, ts) % 50)::DOUBLE, '${RUN}', now()
            FROM bench_venues, bench_series,
                 (SELECT range AS ts FROM range(${utc(hourStart)}, ${utc(addDays(end, 1))}, INTERVAL 1 HOUR))
            ORDER BY v, stream, metric, ts`);
        }
        rows += await session.run(`INSERT INTO series_points
          WITH hours AS (
            SELECT venue_id, stream, metric, date_trunc('day', ts) AS ts, sum(value) AS value
            FROM series_points
            WHERE granularity = 'hour' AND ts >= ${utc(hourStart)} AND ts < ${utc(addDays(end, 1))}
            GROUP BY ALL
          )
          SELECT b.venue_id, s.stream, s.metric, 'day', d.ts,
                 coalesce(h.value, CASE WHEN s.metric = 'rates-average' AND hash(b.venue_id, d.ts) % 5 = 0 THEN NULL
                                        ELSE (hash(b.venue_id, s.metric, d.ts) % 1000)::DOUBLE END),
                 '${RUN}', now()
          FROM bench_venues b CROSS JOIN bench_series s
          CROSS JOIN (SELECT range AS ts FROM range(${utc(start)}, ${utc(addDays(end, 1))}, INTERVAL 1 DAY)) d
          LEFT JOIN hours h ON h.venue_id = b.venue_id AND h.stream = s.stream AND h.metric = s.metric AND h.ts = d.ts
          ORDER BY b.v, s.stream, s.metric, d.ts`);
        return rows;
      });
    }
    const horizonMonth = `date_trunc('month', DATE '${addDays(lastDay, -(SUMMARY_DAY_HORIZON - 1))}')::DATE`;
    summaryRows = await write(async (session) => {
      await session.run(`CREATE OR REPLACE TEMP TABLE bench_periods AS
        SELECT day AS period_start, day AS period_end
        FROM (SELECT range::DATE AS day FROM range(DATE '${firstDay}', DATE '${lastDay}' + 1, INTERVAL 1 DAY))
        WHERE day >= ${horizonMonth}
        UNION ALL
        SELECT greatest(m, DATE '${firstDay}'), (m + INTERVAL 1 MONTH)::DATE - 1
        FROM (SELECT range::DATE AS m FROM range(date_trunc('month', DATE '${firstDay}'), ${horizonMonth}, INTERVAL 1 MONTH))`);
      return session.run(`INSERT INTO summary_values
        WITH series_days AS (
          SELECT venue_id, stream, metric, timezone('UTC', ts)::DATE AS day, value
          FROM series_points WHERE granularity = 'day'
        ),
        paired AS (
          SELECT b.venue_id, s.stream, s.metric, p.period_start, p.period_end, sum(d.value) AS value
          FROM bench_venues b, (${SUMMARIES}) s(stream, metric, series_stream, series_metric), bench_periods p, series_days d
          WHERE s.series_stream IS NOT NULL AND d.venue_id = b.venue_id AND d.stream = s.series_stream
            AND d.metric = s.series_metric AND d.day BETWEEN p.period_start AND p.period_end
          GROUP BY ALL
        )
        SELECT b.venue_id, s.stream, s.metric, p.period_start, p.period_end,
               coalesce(pv.value, (hash(b.venue_id, s.metric, p.period_start) % 1000)::DOUBLE), '${RUN}', now()
        FROM bench_venues b CROSS JOIN (${SUMMARIES}) s(stream, metric, series_stream, series_metric) CROSS JOIN bench_periods p
        LEFT JOIN paired pv ON pv.venue_id = b.venue_id AND pv.stream = s.stream AND pv.metric = s.metric AND pv.period_start = p.period_start
        ORDER BY date_trunc('month', p.period_start), b.v, s.stream, s.metric, p.period_start`);
    });
    await write(async (session) => {
      await session.run(`INSERT INTO venues
        SELECT venue_id, 'Venue ' || v, v || ' Main Street', 'City ' || (v % 97), 'DE', TIMESTAMPTZ '2024-01-01 00:00:00+00', now()
        FROM bench_venues`);
      await session.run(`INSERT INTO accounts
        SELECT ('acc00000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::UUID, 'user' || a || '@example.com', 'User ' || a,
               NULL, 'en', ['staff'], NULL, NULL, a = 0, now() - INTERVAL 300 DAY, now(), '${RUN}'
        FROM range(${Math.max(10, Math.ceil(venues / 2))}) t(a)`);
      // Three own roles per venue (one with an older closed version) and two inherited ones.
      await session.run(`INSERT INTO venue_roles
        SELECT ('7e000000-0000-4000-8000-' || lpad(to_hex(v * 8 + r), 12, '0'))::UUID, venue_id,
               ('acc00000-0000-4000-8000-' || lpad(to_hex((v * 7 + r) % ${Math.max(10, Math.ceil(venues / 2))}), 12, '0'))::UUID,
               CASE r WHEN 0 THEN 'owner' WHEN 1 THEN 'manager' WHEN 2 THEN 'staff' WHEN 3 THEN 'project-admin' ELSE 'project-viewer' END,
               CASE WHEN r >= 3 THEN 'project-roles' END,
               CASE r WHEN 0 THEN ['venue.manage', 'venue.read'] WHEN 4 THEN ['venue.read'] ELSE ['venue.read', 'venue.report'] END,
               TIMESTAMPTZ '2025-06-01 00:00:00+00', NULL, '${RUN}'
        FROM bench_venues, range(5) t(r)
        UNION ALL
        SELECT ('7e000000-0000-4000-8000-' || lpad(to_hex(v * 8), 12, '0'))::UUID, venue_id, NULL, 'owner', NULL, ['venue.read'],
               TIMESTAMPTZ '2025-01-01 00:00:00+00', TIMESTAMPTZ '2025-06-01 00:00:00+00', '${RUN}'
        FROM bench_venues`);
      await session.run(`INSERT INTO project_roles
        SELECT ('7f000000-0000-4000-8000-' || lpad(to_hex(p * 4 + r), 12, '0'))::UUID,
               ('70000000-0000-4000-8000-' || lpad(to_hex(p), 12, '0'))::UUID,
               ('acc00000-0000-4000-8000-' || lpad(to_hex(p + r), 12, '0'))::UUID,
               CASE r WHEN 0 THEN 'project-admin' ELSE 'project-viewer' END, ['venue.read'],
               TIMESTAMPTZ '2025-06-01 00:00:00+00', NULL, '${RUN}'
        FROM range(${Math.max(1, Math.ceil(venues / 100))}) p(p), range(2) r(r)`);
      await session.run(`INSERT INTO sync_cursors
        SELECT stream, venue_id::VARCHAR, DATE '${lastDay}', now(), 'bench-run-399'
        FROM bench_venues, (SELECT unnest([${STREAMS.map((s) => `'${s}'`).join(', ')}]) AS stream)
        UNION ALL SELECT 'accounts', 'accounts', DATE '${lastDay}', now(), 'bench-run-399'`);
      await session.run(`INSERT INTO sync_runs
        SELECT 'bench-run-' || lpad(r::VARCHAR, 3, '0'), 'sync', now() - INTERVAL (400 - r) DAY,
               now() - INTERVAL (400 - r) DAY + INTERVAL 5 MINUTE, CASE WHEN r = 390 THEN 'partial' ELSE 'succeeded' END,
               ${venues * 10}, 3, ${venues * 300}, CASE WHEN r = 390 THEN 3 ELSE 0 END, '{"pid": 1}'
        FROM range(400) t(r)`);
      await session.run(`INSERT INTO sync_errors
        SELECT 'bench-run-390', 'venue-devices-history', venue_id::VARCHAR, DATE '${addDays(lastDay, -9)}', DATE '${addDays(lastDay, -9)}',
               'VENUE_HTTP_STATUS', 'HTTP 503 from the API', now() - INTERVAL 10 DAY
        FROM bench_venues WHERE v < 3`);
      await session.run('DROP TABLE bench_venues');
      await session.run('DROP TABLE bench_series');
      return 0;
    });
    // The rows went in around the loader: the daily rollup is summed once, as migration 008 does,
    // and the peak-hours rollup a sync would have kept as it loaded is computed from them at once
    // (sql/warehouse/peak-hours-rebuild.sql).
    let started = performance.now();
    const rollupRows = await write(async (session) => {
      await session.run(sql('rollups/series-daily-rebuild.sql'));
      const [row] = await session.all<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM series_daily');
      return row!.n;
    });
    const rollupMs = performance.now() - started;
    started = performance.now();
    await write(async (session) => {
      await rebuildPeakHours(session);
      return 0;
    });
    return { seriesRows, summaryRows, rollupRows, rollupMs, peakHoursRollupMs: performance.now() - started };
  } finally {
    await warehouse.close();
  }
}
