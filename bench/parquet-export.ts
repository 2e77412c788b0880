/**
 * B5: Parquet export of a large warehouse, then an incremental export after a one-day sync.
 *
 * The warehouse is generated in SQL (a backfill of that size through the API would take
 * minutes): daily series of the four history streams and day summaries of the six summary
 * streams, inserted in the order a backfill commits them (window by window, venue by venue).
 * The one-day sync goes through the real loader (Warehouse.commitSlices): every venue and
 * stream re-reads its 3-day lookback window, whose last day is new, so those windows are
 * replaced. Only the partitions holding rows that sync wrote may be rewritten by the export.
 */
import { sql } from '../src/warehouse/sql-files.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportParquet, exportTotals, type ExportReport } from '../src/export/index.js';
import { addDays } from '../src/calendar/index.js';
import { openWarehouse, type SliceCommit, type Warehouse } from '../src/warehouse/index.js';
import { fmt, type Figure } from './figure.js';
import { SERIES_METRICS } from './series-metrics.js';

export interface ExportDataOptions {
  /** Series rows at least (9 per venue and day). */
  readonly seriesRows: number;
  readonly venues: number;
  /** Days of day summaries (28 rows per venue and day) before the last day. */
  readonly summaryDays: number;
}

/** The generated warehouse: its last day, then the day the one-day sync adds. */
export const LAST_DAY = '2026-01-20';
export const SYNC_DAY = addDays(LAST_DAY, 1);
const SYNC_RUN = 'bench-one-day-sync';

const SUMMARIES = `VALUES
  ('venue-devices-summary', 'detected'), ('venue-devices-summary', 'unique-detected'),
  ('venue-devices-summary', 'unique-authenticated'), ('venue-devices-summary', 'authenticated'),
  ('venue-users-login-methods', 'email'), ('venue-users-login-methods', 'phone'), ('venue-users-login-methods', 'autologin'),
  ('venue-users-login-methods', 'social-a'), ('venue-users-login-methods', 'social-b'), ('venue-users-login-methods', 'social-c'),
  ('venue-users-login-methods', 'social-d'),
  ('venue-users-status', 'inactive'), ('venue-users-status', 'active'),
  ('venue-users-summary', 'logins'), ('venue-users-summary', 'unique-logins'), ('venue-users-summary', 'confirmed-users'),
  ('venue-users-summary', 'returning-users'),
  ('rating-summary', 'rates_count'), ('rating-summary', 'average_rate'), ('rating-summary', 'rates_per_value.1'),
  ('rating-summary', 'rates_per_value.2'), ('rating-summary', 'rates_per_value.3'), ('rating-summary', 'rates_per_value.4'),
  ('rating-summary', 'rates_per_value.5'),
  ('rating-statistics-summaries', 'requests-commented'), ('rating-statistics-summaries', 'requests-sent'),
  ('rating-statistics-summaries', 'requests-opened'), ('rating-statistics-summaries', 'requests-rated')`;

/** A value per (venue, metric, day): deterministic, so the sync can repeat it for old days. */
const value = (venue: string, metric: string, day: string) => `(hash(${venue}, ${metric}, ${day}) % 1000)::DOUBLE`;

export async function generateWarehouse(path: string, options: ExportDataOptions): Promise<{ seriesRows: number; summaryRows: number; days: number }> {
  const days = Math.ceil(options.seriesRows / (9 * options.venues));
  const warehouse = await openWarehouse(path);
  try {
    return await warehouse.transaction(async (session) => {
      await session.run(`CREATE OR REPLACE TEMP TABLE bench_venues AS
        SELECT v, ('6f1c1a52-0000-4000-8000-' || lpad(to_hex(v), 12, '0'))::UUID AS venue_id FROM range(${options.venues}) t(v)`);
      const seriesRows = await session.run(`INSERT INTO series_points
        SELECT venue_id, stream, metric, 'day',
               to_timestamp((DATE '${LAST_DAY}' - d - DATE '1970-01-01') * 86400),
               CASE WHEN metric = 'rates-average' AND hash(venue_id, d) % 5 = 0 THEN NULL
                    ELSE ${value('venue_id', 'metric', `DATE '${LAST_DAY}' - d`)} END,
               'bench-backfill', now()
        FROM bench_venues, (${SERIES_METRICS}) AS s(stream, metric), (SELECT range::INTEGER AS d FROM range(${days}))
        ORDER BY (${days} - 1 - d) // 31, v, stream, metric, d DESC`);
      const summaryRows = await session.run(`INSERT INTO summary_values
        SELECT venue_id, stream, metric, DATE '${LAST_DAY}' - d, DATE '${LAST_DAY}' - d,
               ${value('venue_id', 'metric', `DATE '${LAST_DAY}' - d`)}, 'bench-backfill', now()
        FROM bench_venues, (${SUMMARIES}) AS s(stream, metric), (SELECT range::INTEGER AS d FROM range(${options.summaryDays}))
        ORDER BY (${options.summaryDays} - 1 - d) // 31, v, stream, metric, d DESC`);
      // Written around the loader: the daily rollup is summed once, as migration 008 does.
      await session.run(sql('rollups/series-daily-rebuild.sql'));
      return { seriesRows, summaryRows, days };
    }, 'generating benchmark data');
  } finally {
    await warehouse.close();
  }
}

/**
 * The nightly job after one new day: each venue and stream re-reads SYNC_DAY - 2 .. SYNC_DAY;
 * the two old days come back unchanged (read from the warehouse), the new day is new.
 */
async function oneDaySync(warehouse: Warehouse, syncDay = SYNC_DAY, runId = SYNC_RUN): Promise<number> {
  const from = addDays(syncDay, -2);
  const series = await warehouse.query<{ venue_id: string; stream: string; metric: string; ts_ms: number; value: number | null }>(
    `SELECT venue_id::VARCHAR AS venue_id, stream, metric, epoch_ms(ts)::DOUBLE AS ts_ms, value FROM series_points
      WHERE ts >= TIMESTAMPTZ '${from} 00:00:00Z' ORDER BY venue_id, stream, metric, ts`,
  );
  const summaries = await warehouse.query<{ venue_id: string; stream: string; metric: string; day: string; value: number | null }>(
    `SELECT venue_id::VARCHAR AS venue_id, stream, metric, period_start::VARCHAR AS day, value FROM summary_values
      WHERE period_start >= DATE '${from}' ORDER BY venue_id, stream, metric, period_start`,
  );
  const commits = new Map<string, SliceCommit>();
  const commitFor = (stream: string, venueId: string): SliceCommit => {
    const key = `${stream}|${venueId}`;
    let commit = commits.get(key);
    if (!commit) {
      commit = { stream, scopeId: venueId, windowFrom: from, windowTo: syncDay, cursor: { mode: 'advance', date: syncDay } };
      commits.set(key, commit);
    }
    return commit;
  };
  const newDayMs = Date.parse(`${syncDay}T00:00:00Z`);
  for (const row of series) {
    const commit = commitFor(row.stream, row.venue_id) as { series?: SliceCommit['series'] };
    commit.series ??= { venueId: row.venue_id, stream: row.stream, metric: [], granularity: [], tsMs: [], value: [] };
    const columns = commit.series;
    columns.metric.push(row.metric);
    columns.granularity.push('day');
    columns.tsMs.push(row.ts_ms);
    columns.value.push(row.value);
  }
  for (const commit of commits.values()) {
    const columns = commit.series!;
    const metrics = [...new Set(columns.metric)];
    for (const metric of metrics) {
      // Appended after every metric's old points: sorted back into metric and time order below.
      columns.metric.push(metric);
      columns.granularity.push('day');
      columns.tsMs.push(newDayMs);
      columns.value.push(metric.length * 7);
    }
    sortSeries(columns);
  }
  for (const row of summaries) {
    const commit = commitFor(row.stream, row.venue_id) as { summaries?: SliceCommit['summaries'] };
    commit.summaries ??= {
      rows: { stream: row.stream, venueId: [], metric: [], periodStart: [], periodEnd: [], value: [] },
      grain: 'day',
      ownsSingleDayPeriods: false,
    };
    const rows = commit.summaries.rows;
    rows.venueId.push(row.venue_id);
    rows.metric.push(row.metric);
    rows.periodStart.push(row.day);
    rows.periodEnd.push(row.day);
    rows.value.push(row.value);
  }
  for (const commit of commits.values()) {
    const rows = commit.summaries?.rows;
    if (!rows) continue;
    for (const metric of [...new Set(rows.metric)]) {
      rows.venueId.push(commit.scopeId);
      rows.metric.push(metric);
      rows.periodStart.push(syncDay);
      rows.periodEnd.push(syncDay);
      rows.value.push(metric.length * 3);
    }
  }
  const result = await warehouse.commitSlices(runId, [...commits.values()]);
  return result.rowsWritten;
}

function sortSeries(columns: NonNullable<SliceCommit['series']>): void {
  const order = columns.tsMs
    .map((_, i) => i)
    .sort((a, b) => (columns.metric[a]! < columns.metric[b]! ? -1 : columns.metric[a]! > columns.metric[b]! ? 1 : columns.tsMs[a]! - columns.tsMs[b]!));
  const pick = <T>(values: T[]) => order.map((i) => values[i]!);
  const [metric, granularity, tsMs, value] = [pick(columns.metric), pick(columns.granularity), pick(columns.tsMs), pick(columns.value)];
  columns.metric.splice(0, Infinity, ...metric);
  columns.granularity.splice(0, Infinity, ...granularity);
  columns.tsMs.splice(0, Infinity, ...tsMs);
  columns.value.splice(0, Infinity, ...value);
}

export interface ExportRun {
  readonly dir: string;
  readonly warehousePath: string;
  readonly parquetDir: string;
  readonly figure: Figure;
  cleanup(): void;
}

/** Builds the data, exports it twice around a one-day sync; keeps the files for B7. */
export async function parquetExportRun(options: ExportDataOptions): Promise<ExportRun> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b5-'));
  const warehousePath = join(dir, 'warehouse.duckdb');
  const parquetDir = join(dir, 'parquet');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const generated = await generateWarehouse(warehousePath, options);
    let started = performance.now();
    const full = await exportParquet({ warehouse: warehousePath, dir: parquetDir });
    const fullMs = performance.now() - started;

    const warehouse = await openWarehouse(warehousePath);
    let synced: number;
    let affected: { table: string; partitions: number }[];
    try {
      synced = await oneDaySync(warehouse);
      affected = await warehouse.query<{ table: string; partitions: number }>(
        `SELECT 'series_points' AS "table", count(DISTINCT (stream, strftime(timezone('UTC', ts), '%Y-%m')))::INTEGER AS partitions
           FROM series_points WHERE run_id = '${SYNC_RUN}'
         UNION ALL
         SELECT 'summary_values', count(DISTINCT (stream, strftime(period_start, '%Y-%m')))::INTEGER
           FROM summary_values WHERE run_id = '${SYNC_RUN}'`,
      );
    } finally {
      await warehouse.close();
    }
    started = performance.now();
    const incremental = await exportParquet({ warehouse: warehousePath, dir: parquetDir });
    const incrementalMs = performance.now() - started;

    const fullTotals = exportTotals(full);
    const incTotals = exportTotals(incremental);
    const partitioned = (report: ExportReport, table: string) => report.tables.find((t) => t.table === table);
    const expected = affected.reduce((n, a) => n + a.partitions, 0);
    const writtenPartitions = ['series_points', 'summary_values'].reduce((n, t) => n + (partitioned(incremental, t)?.written ?? 0), 0);
    const totalPartitions = ['series_points', 'summary_values'].reduce((n, t) => {
      const r = partitioned(incremental, t);
      return n + (r ? r.written + r.unchanged : 0);
    }, 0);
    const otherFiles = incremental.tables.filter((t) => !t.partitioned && t.written > 0).map((t) => t.table);
    const rows = generated.seriesRows + generated.summaryRows;
    return {
      dir,
      warehousePath,
      parquetDir,
      cleanup,
      figure: {
        id: 'B5',
        what: `Parquet export of ${fmt.count(rows)} rows; incremental after a one-day sync`,
        measured: `${fmt.seconds(fullMs)}, ${fmt.mb(fullTotals.bytesWritten)}; incr. ${fmt.seconds(incrementalMs)}, ${fmt.mb(incTotals.bytesWritten)}, ${writtenPartitions}/${totalPartitions} partitions`,
        limit: `full rewrite; ${expected} partitions affected`,
        ratio: fmt.ratio(incrementalMs / fullMs),
        target: 'seconds and MB; only affected partitions',
        met: writtenPartitions === expected && incrementalMs < fullMs,
        notes: [
          `Data: ${fmt.count(generated.seriesRows)} series rows (1 venue-day = 9 rows, ${generated.days} days x ${options.venues} venues) and ` +
            `${fmt.count(generated.summaryRows)} day summaries (${options.summaryDays} days), generated in SQL in backfill order.`,
          `Full export: ${fullTotals.written} files, ${fmt.count(fullTotals.rowsWritten)} rows, ${fmt.mb(fullTotals.bytesWritten)} ` +
            `(${fmt.rate((fullTotals.rowsWritten * 1000) / fullMs)} rows/s).`,
          `One-day sync (${fmt.count(synced)} rows written through commitSlices) touched ${affected.map((a) => `${a.partitions} ${a.table}`).join(' + ')} ` +
            `partitions; the incremental export rewrote ${writtenPartitions} of them (${fmt.count(incTotals.rowsWritten)} rows) ` +
            `plus ${otherFiles.length > 0 ? otherFiles.join(', ') : 'no other file'}, and left ${incTotals.unchanged} files as they were.`,
        ],
      },
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}

export interface IncrementalScaleOptions {
  readonly venues: number;
  /** Days of history (series and day summaries) of the 1x warehouse; the 10x one has ten times as many. */
  readonly days: number;
  /** One-day syncs, each followed by a timed incremental export; the fastest export counts. */
  readonly rounds: number;
}

/**
 * B5X: the incremental export after a one-day sync costs what the sync changed, not what the
 * warehouse holds. The same venues with 1x and 10x the history (the change is the same size),
 * each exported in full once, then `rounds` times: a one-day sync through commitSlices, and a
 * timed incremental export. The ratio is the 10x time over the 1x time.
 */
export async function incrementalScaleFigure(options: IncrementalScaleOptions): Promise<Figure> {
  const measured: { rows: number; ms: number; partitions: number; files: number }[] = [];
  for (const scale of [1, 10]) {
    const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b5x-'));
    try {
      const path = join(dir, 'warehouse.duckdb');
      const parquet = join(dir, 'parquet');
      const days = options.days * scale;
      const generated = await generateWarehouse(path, { seriesRows: 9 * options.venues * days, venues: options.venues, summaryDays: days });
      await exportParquet({ warehouse: path, dir: parquet });
      let best = Infinity;
      let last: ExportReport | undefined;
      for (let round = 1; round <= options.rounds; round++) {
        const warehouse = await openWarehouse(path);
        try {
          await oneDaySync(warehouse, addDays(LAST_DAY, round), `bench-one-day-sync-${round}`);
        } finally {
          await warehouse.close();
        }
        const started = performance.now();
        last = await exportParquet({ warehouse: path, dir: parquet });
        best = Math.min(best, performance.now() - started);
      }
      const totals = last ? exportTotals(last) : undefined;
      measured.push({
        rows: generated.seriesRows + generated.summaryRows,
        ms: best,
        partitions: totals?.checked ?? 0,
        files: (totals?.written ?? 0) + (totals?.unchanged ?? 0),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [one, ten] = [measured[0]!, measured[1]!];
  const ratio = ten.ms / one.ms;
  return {
    id: 'B5X',
    what: `incremental export after a one-day sync, ${fmt.count(one.rows)} vs ${fmt.count(ten.rows)} rows`,
    measured: `1x ${fmt.seconds(one.ms)}, 10x ${fmt.seconds(ten.ms)}`,
    limit: 'same change, 10x the history',
    ratio: fmt.ratio(ratio),
    target: '<= 1.30x',
    met: ratio <= 1.3,
    notes: [
      `${options.venues} venues with ${options.days} and ${options.days * 10} days of series and day summaries (generated in SQL); ` +
        `each one-day sync goes through commitSlices; fastest of ${options.rounds} incremental exports. ` +
        `Partitions read: ${one.partitions} (1x) and ${ten.partitions} (10x) of ${one.files} and ${ten.files} files.`,
    ],
  };
}
