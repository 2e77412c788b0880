/**
 * B11: every named report and `check` on a big warehouse (venues x 1 year, generated in SQL by
 * big-warehouse-data.ts; 5,000 venues is ~146M series rows), through the read side the commands use.
 * A report is timed as `report --format csv` runs it, its output included (bench/report-output.ts).
 * Each query runs twice in the same run: as it was before the scan-cutting rewrites (the old
 * files, kept in bench/big-warehouse-baseline/ for this comparison only) and as it is now in
 * sql/. Reports run over the whole year and over the last 31 days (a range the scan can prune).
 * The warehouse is then exported to Parquet and the reports over the last 31 days run on it with
 * `--parquet`'s views twice: opening every month's files (the report's text without its
 * `-- Parquet months read:` lines) and only the months of the range (as it is).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays } from '../src/calendar/index.js';
import { exportParquet, exportTotals } from '../src/export/index.js';
import { listNamedSql, openParquetSource, openWarehouseSource, runNamedSql, type NamedSql, type SqlParams } from '../src/readside/index.js';
import { monthsRead } from '../src/readside/months-read.js';
import { setVariables } from '../src/readside/variables.js';
import { generateBigWarehouse, type BigWarehouseOptions } from './big-warehouse-data.js';
import { fmt, type Figure } from './figure.js';
import { measure as dashboardMeasure } from './dashboard-generation.js';
import { timeRollupRefresh } from './big-warehouse-refresh.js';
import { timeCsvReport, timeCsvReportInJavaScript } from './report-output.js';
import { Fingerprint } from './line-fingerprint.js';
import type { DuckDBConnection } from '@duckdb/node-api';

export type BigWarehouseSize = Pick<BigWarehouseOptions, 'venues' | 'days' | 'hourDays'>;

/**
 * The read side's DuckDB memory limit here (query.memoryLimit; 1GB by default): the earlier texts
 * of the checks ran out of 1GB already at 300 venues (series-duplicate-keys, no temp files on
 * the read side), and the machine is shared, so 6GB, not DuckDB's default of 80 % of the RAM.
 */
const QUERY_MEMORY = '6GB';

const BASELINE_DIR = fileURLToPath(new URL('../../bench/big-warehouse-baseline/', import.meta.url));

interface Timing {
  readonly name: string;
  readonly beforeMs: number;
  readonly afterMs: number;
  /** Whether the text as it is gave the rows of the text before (over the raw points); undefined: no before. */
  readonly equal?: boolean;
}

/** A result's rows as an order-free fingerprint of each row's JSON (line-fingerprint.ts). */
function rowsOf(result: { rows: readonly unknown[] }): string {
  const fingerprint = new Fingerprint();
  for (const row of result.rows) fingerprint.add(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
  return fingerprint.toString();
}

function baselineOf(named: NamedSql): NamedSql | undefined {
  const file = join(BASELINE_DIR, `${named.name}.sql`);
  return existsSync(file) ? { ...named, file, text: readFileSync(file, 'utf8') } : undefined;
}

/** The texts that failed in this run, with DuckDB's first line. */
const failures: string[] = [];

/**
 * An earlier text that fails (at 5,000 venues the one of peak-hours over every point ran out of
 * the 6GB the read side is given here, with no temp files) is recorded and shown as failed, not
 * timed: NaN.
 */
async function orFailed(name: string, timing: Promise<number>): Promise<number> {
  try {
    return await timing;
  } catch (error) {
    failures.push(`before ${name} in DuckDB alone: ${(error as Error).message.split('\n')[0]}`);
    return Number.NaN;
  }
}

/** A report as `report --format csv` writes it (output included), a check as rows. */
async function timeOne(connection: DuckDBConnection, kind: 'reports' | 'checks', query: NamedSql, params: SqlParams): Promise<{ ms: number; rows: string }> {
  if (kind === 'reports') {
    const written = await timeCsvReport(connection, query, params);
    return { ms: written.ms, rows: written.fingerprint };
  }
  const started = performance.now();
  const result = await runNamedSql(connection, query, params);
  return { ms: performance.now() - started, rows: rowsOf(result) };
}

async function timeAll(path: string, kind: 'reports' | 'checks', params: SqlParams): Promise<Timing[]> {
  const timings: Timing[] = [];
  for (const named of listNamedSql(kind)) {
    // A text that fails (the 6 GB memory limit: DuckDB spills nothing on the read side) is
    // recorded as NaN ms and named in the notes; the others still run. Each text on a source of
    // its own, closed after it: a result DuckDB holds until its JavaScript object is collected
    // took the memory of the next text on a shared connection (at 5,000 venues every report
    // after peak-hours ran out of it).
    const time = async (query: NamedSql) => {
      const source = await openWarehouseSource(path, { memoryLimit: QUERY_MEMORY });
      try {
        return await timeOne(source.connection, kind, query, params);
      } catch (error) {
        failures.push(`${query === named ? 'after' : 'before'} ${named.name}: ${(error as Error).message.split('\n')[0]}`);
        return { ms: Number.NaN, rows: 'failed' };
      } finally {
        await source.close();
      }
    };
    const old = baselineOf(named);
    const before = old ? await time(old) : undefined;
    const after = await time(named);
    timings.push({ name: named.name, beforeMs: before?.ms ?? after.ms, afterMs: after.ms, ...(before ? { equal: before.rows === after.rows } : {}) });
  }
  return timings;
}

/**
 * peak-hours before and after, in DuckDB alone: its statements run and the result materialized
 * by DuckDB, not read into JavaScript values. At 5,000 venues its result is 4.8M rows (192 a venue
 * and metric), and reading them into values is a cost of their number, whatever the query.
 */
async function peakHoursInDuckDb(path: string, params: SqlParams): Promise<{ beforeMs: number; afterMs: number }> {
  const named = listNamedSql('reports').find((r) => r.name === 'peak-hours')!;
  // Each text on a source of its own, closed after it: a result DuckDB holds until the
  // JavaScript object is collected kept the next text from the memory it needs at 5,000 venues.
  const time = async (text: string) => {
    const source = await openWarehouseSource(path, { memoryLimit: QUERY_MEMORY });
    try {
      await setVariables(source.connection, params);
      const started = performance.now();
      await source.connection.run(text);
      return performance.now() - started;
    } finally {
      await source.close();
    }
  };
  const beforeMs = await orFailed('peak-hours', time(baselineOf(named)!.text));
  return { beforeMs, afterMs: await time(named.text) };
}

/** The reports with the biggest answers (1.8M, 1.8M and 4.8M rows at 5,000 venues). */
const BIG_ANSWERS = ['daily-devices', 'daily-logins', 'peak-hours'];

/**
 * The big answers' CSV over the whole year, made from JavaScript values (as before) and by
 * DuckDB (as now), each on a source of its own: seconds before -> after, and whether the lines
 * are the same.
 */
async function outputWays(path: string): Promise<string> {
  const parts: string[] = [];
  for (const named of listNamedSql('reports').filter((r) => BIG_ANSWERS.includes(r.name))) {
    const time = async (how: typeof timeCsvReport) => {
      const source = await openWarehouseSource(path, { memoryLimit: QUERY_MEMORY });
      try {
        return await how(source.connection, named, {});
      } finally {
        await source.close();
      }
    };
    const before = await time(timeCsvReportInJavaScript);
    const after = await time(timeCsvReport);
    const same = before.fingerprint === after.fingerprint ? 'same lines' : 'LINES DIFFER';
    parts.push(`${named.name} (${fmt.count(after.rows)} rows) ${fmt.seconds(before.ms)} -> ${fmt.seconds(after.ms)}, ${same}`);
  }
  return parts.join('; ');
}

/** The text as it runs without month pruning: its `-- Parquet months read:` lines blanked. */
const everyMonth = (named: NamedSql): NamedSql => ({ ...named, text: named.text.replace(/^-- Parquet months read:.*$/gm, '--') });

/** The reports that declare months, over `params` on the Parquet export: every month (before) vs the range's months (after). */
async function timeParquet(dir: string, params: SqlParams): Promise<Timing[]> {
  const source = await openParquetSource(dir, QUERY_MEMORY);
  try {
    const timings: Timing[] = [];
    for (const named of listNamedSql('reports').filter((r) => monthsRead(r.text).length > 0)) {
      const time = async (query: NamedSql) => {
        const started = performance.now();
        try {
          await runNamedSql(source.connection, query, params);
          return performance.now() - started;
        } catch (error) {
          failures.push(`--parquet ${named.name}: ${(error as Error).message.split('\n')[0]}`);
          return Number.NaN;
        }
      };
      const beforeMs = await time(everyMonth(named));
      const afterMs = await time(named);
      timings.push({ name: named.name, beforeMs, afterMs });
    }
    return timings;
  } finally {
    await source.close();
  }
}

/** The texts whose rows differ from their before's (over the raw points), or 'none'. */
// peak-hours is left out: its before predates the venue labels (another column), and it reads no rollup.
const differing = (timings: readonly Timing[]): string =>
  timings
    .filter((t) => t.equal === false && t.name !== 'peak-hours')
    .map((t) => t.name)
    .join(', ') || 'none';
const slowest = (timings: readonly Timing[], except: string) => [...timings].filter((t) => t.name !== except).sort((a, b) => b.afterMs - a.afterMs)[0]!;

/** A text that failed (NaN) has no time. */
const msText = (value: number) => (Number.isFinite(value) ? fmt.ms(value) : 'failed');
const secondsText = (value: number) => (Number.isFinite(value) ? fmt.seconds(value) : 'failed');
const ratio = (after: number, before: number) => (Number.isFinite(before) ? fmt.ratio(after / before) : '-');

/** A failed text (NaN) adds nothing to a total and sorts as the heaviest. */
const total = (timings: readonly Timing[], key: 'beforeMs' | 'afterMs') => timings.reduce((sum, t) => sum + (Number.isNaN(t[key]) ? 0 : t[key]), 0);
const weight = (ms: number) => (Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms);
const heaviest = (timings: readonly Timing[]) => [...timings].sort((a, b) => weight(b.beforeMs) - weight(a.beforeMs))[0]!;
const list = (timings: readonly Timing[]) =>
  [...timings]
    .sort((a, b) => weight(b.beforeMs) - weight(a.beforeMs))
    .map((t) => `${t.name} ${t.beforeMs === t.afterMs ? msText(t.afterMs) : `${msText(t.beforeMs)} -> ${msText(t.afterMs)}`}`)
    .join(', ');

export async function bigWarehouseFigure(size: BigWarehouseSize, seconds = 10): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b11-'));
  try {
    const path = join(dir, 'warehouse.duckdb');
    const lastDay = addDays(new Date().toISOString().slice(0, 10), -1);
    let started = performance.now();
    const rows = await generateBigWarehouse(path, { ...size, lastDay });
    const buildMs = performance.now() - started;
    const reportsYear = await timeAll(path, 'reports', {});
    const reportsMonth = await timeAll(path, 'reports', { from: addDays(lastDay, -30), to: lastDay });
    const output = await outputWays(path);
    const peakYear = await peakHoursInDuckDb(path, {});
    const peakMonth = await peakHoursInDuckDb(path, { from: addDays(lastDay, -30), to: lastDay });
    const peakBerlin = await peakHoursInDuckDb(path, { tz: 'Europe/Berlin' });
    started = performance.now();
    const checks = await timeAll(path, 'checks', { staleAfterDays: 2 });
    const refresh = await timeRollupRefresh(path, lastDay);
    const worst = heaviest(reportsYear);
    const worstMonth = heaviest(reportsMonth);
    const [checkBefore, checkAfter] = [total(checks, 'beforeMs'), total(checks, 'afterMs')];
    const parquet = join(dir, 'parquet');
    started = performance.now();
    const exported = exportTotals(await exportParquet({ warehouse: path, dir: parquet }));
    const exportMs = performance.now() - started;
    const lastMonth = await timeParquet(parquet, { from: addDays(lastDay, -30), to: lastDay });
    const dashboard = await dashboardMeasure({ venues: 1000, days: 396 });
    const slowestYear = slowest(reportsYear, 'peak-hours');
    return {
      id: 'B11',
      what: `heaviest report (${worst.name}) and check on ${fmt.count(size.venues)} venues x ${size.days} days`,
      measured: `report ${secondsText(worst.afterMs)}, check ${secondsText(checkAfter)}`,
      limit: `before: ${secondsText(worst.beforeMs)}, ${secondsText(checkBefore)}`,
      ratio: `${ratio(worst.afterMs, worst.beforeMs)}, ${ratio(checkAfter, checkBefore)}`,
      target: `seconds (< ${seconds} s)`,
      met: worst.afterMs < seconds * 1000 && checkAfter < seconds * 1000,
      notes: [
        `Data: ${fmt.count(rows.seriesRows)} series rows (9 metrics at day grain for ${size.days} days, at hour grain for the last ${size.hourDays}) and ` +
          `${fmt.count(rows.summaryRows)} summary rows (days for the recent months, months before), roles, cursors and runs, ` +
          `generated in SQL in backfill order in ${secondsText(buildMs)}.`,
        `series_daily: ${fmt.count(rows.rollupRows)} rows, summed from every point in ${fmt.seconds(rows.rollupMs)} (migration 008's fill). ` +
          `Before = the text over the raw points (bench/big-warehouse-baseline/), after = through the rollup; rows differing: ` +
          `${differing([...reportsYear, ...reportsMonth, ...checks])}. Slowest report but peak-hours: ${slowestYear.name} ${fmt.seconds(slowestYear.afterMs)}.`,
        `Failed: ${failures.length === 0 ? 'none' : failures.join('; ')}.`,
        `Keeping series_daily exact, per load round (same transaction): ${refresh}.`,
        `Dashboard of 1,000 venues x 13 months (B8's data, a separate warehouse): written in ${fmt.seconds(dashboard.ms)}, ${fmt.mb(dashboard.bytes)}.`,
        `Reports over the whole year, before -> after: ${list(reportsYear)}.`,
        `A report's time is \`report --format csv\`'s, its output written to a sink (the sink's own time taken off). The biggest answers' CSV ` +
          `over the whole year, every value read into JavaScript and formatted there -> formatted by DuckDB: ${output}.`,
        `peak-hours reads a rollup kept with every load (built from the generated hours in ${secondsText(rows.peakHoursRollupMs)}); in DuckDB alone, ` +
          `its result not read into JavaScript values, before -> after: whole year ${msText(peakYear.beforeMs)} -> ${msText(peakYear.afterMs)}, ` +
          `last 31 days ${msText(peakMonth.beforeMs)} -> ${msText(peakMonth.afterMs)}, whole year in Europe/Berlin ${msText(peakBerlin.beforeMs)} -> ${msText(peakBerlin.afterMs)}.`,
        `Reports over the last 31 days (heaviest ${worstMonth.name} ${secondsText(worstMonth.beforeMs)} -> ${secondsText(worstMonth.afterMs)}): ${list(reportsMonth)}.`,
        `Checks (${secondsText(checkBefore)} -> ${secondsText(checkAfter)}): ${list(checks)}.`,
        `--parquet (export of ${fmt.count(exported.written)} files, ${fmt.count(exported.rows)} rows in ${secondsText(exportMs)}): reports over the last 31 days, ` +
          `every month's files -> only the range's months (${secondsText(total(lastMonth, 'beforeMs'))} -> ${secondsText(total(lastMonth, 'afterMs'))}): ${list(lastMonth)}.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
