/**
 * B11: every named report and `check` on a big warehouse (venues x 1 year, generated in SQL by
 * big-warehouse-data.ts; 5,000 venues is ~146M series rows), through the read side the commands use.
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
}

function baselineOf(named: NamedSql): NamedSql | undefined {
  const file = join(BASELINE_DIR, `${named.name}.sql`);
  return existsSync(file) ? { ...named, file, text: readFileSync(file, 'utf8') } : undefined;
}

async function timeAll(path: string, kind: 'reports' | 'checks', params: SqlParams): Promise<Timing[]> {
  const source = await openWarehouseSource(path, { memoryLimit: QUERY_MEMORY });
  try {
    const timings: Timing[] = [];
    for (const named of listNamedSql(kind)) {
      const time = async (query: NamedSql) => {
        const started = performance.now();
        await runNamedSql(source.connection, query, params);
        return performance.now() - started;
      };
      const old = baselineOf(named);
      const beforeMs = old ? await time(old) : Number.NaN;
      const afterMs = await time(named);
      timings.push({ name: named.name, beforeMs: old ? beforeMs : afterMs, afterMs });
    }
    return timings;
  } finally {
    await source.close();
  }
}

/**
 * peak-hours before and after, in DuckDB alone: its statements run and the result materialized
 * by DuckDB, not read into JavaScript values. At 5,000 venues its result is 4.8M rows (192 a venue
 * and metric), and reading them into values is a cost of their number, whatever the query.
 */
async function peakHoursInDuckDb(path: string, params: SqlParams): Promise<{ beforeMs: number; afterMs: number }> {
  const source = await openWarehouseSource(path, { memoryLimit: QUERY_MEMORY });
  try {
    const named = listNamedSql('reports').find((r) => r.name === 'peak-hours')!;
    const old = baselineOf(named)!;
    await setVariables(source.connection, params);
    const time = async (text: string) => {
      const started = performance.now();
      await source.connection.run(text);
      return performance.now() - started;
    };
    const beforeMs = await time(old.text);
    return { beforeMs, afterMs: await time(named.text) };
  } finally {
    await source.close();
  }
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
        await runNamedSql(source.connection, query, params);
        return performance.now() - started;
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

const total = (timings: readonly Timing[], key: 'beforeMs' | 'afterMs') => timings.reduce((sum, t) => sum + t[key], 0);
const heaviest = (timings: readonly Timing[]) => [...timings].sort((a, b) => b.beforeMs - a.beforeMs)[0]!;
const list = (timings: readonly Timing[]) =>
  [...timings]
    .sort((a, b) => b.beforeMs - a.beforeMs)
    .map((t) => `${t.name} ${t.beforeMs === t.afterMs ? fmt.ms(t.afterMs) : `${fmt.ms(t.beforeMs)} -> ${fmt.ms(t.afterMs)}`}`)
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
    const peakYear = await peakHoursInDuckDb(path, {});
    const peakMonth = await peakHoursInDuckDb(path, { from: addDays(lastDay, -30), to: lastDay });
    const peakBerlin = await peakHoursInDuckDb(path, { tz: 'Europe/Berlin' });
    started = performance.now();
    const checks = await timeAll(path, 'checks', { staleAfterDays: 2 });
    const worst = heaviest(reportsYear);
    const worstMonth = heaviest(reportsMonth);
    const [checkBefore, checkAfter] = [total(checks, 'beforeMs'), total(checks, 'afterMs')];
    const parquet = join(dir, 'parquet');
    started = performance.now();
    const exported = exportTotals(await exportParquet({ warehouse: path, dir: parquet }));
    const exportMs = performance.now() - started;
    const lastMonth = await timeParquet(parquet, { from: addDays(lastDay, -30), to: lastDay });
    return {
      id: 'B11',
      what: `heaviest report (${worst.name}) and check on ${fmt.count(size.venues)} venues x ${size.days} days`,
      measured: `report ${fmt.seconds(worst.afterMs)}, check ${fmt.seconds(checkAfter)}`,
      limit: `before: ${fmt.seconds(worst.beforeMs)}, ${fmt.seconds(checkBefore)}`,
      ratio: `${fmt.ratio(worst.afterMs / worst.beforeMs)}, ${fmt.ratio(checkAfter / checkBefore)}`,
      target: `seconds (< ${seconds} s)`,
      met: worst.afterMs < seconds * 1000 && checkAfter < seconds * 1000,
      notes: [
        `Data: ${fmt.count(rows.seriesRows)} series rows (9 metrics at day grain for ${size.days} days, at hour grain for the last ${size.hourDays}) and ` +
          `${fmt.count(rows.summaryRows)} summary rows (days for the recent months, months before), roles, cursors and runs, ` +
          `generated in SQL in backfill order in ${fmt.seconds(buildMs)}.`,
        `Reports over the whole year, before -> after: ${list(reportsYear)}.`,
        `peak-hours reads a rollup kept with every load (built from the generated hours in ${fmt.seconds(rows.peakHoursRollupMs)}); in DuckDB alone, ` +
          `its result not read into JavaScript values, before -> after: whole year ${fmt.ms(peakYear.beforeMs)} -> ${fmt.ms(peakYear.afterMs)}, ` +
          `last 31 days ${fmt.ms(peakMonth.beforeMs)} -> ${fmt.ms(peakMonth.afterMs)}, whole year in Europe/Berlin ${fmt.ms(peakBerlin.beforeMs)} -> ${fmt.ms(peakBerlin.afterMs)}.`,
        `Reports over the last 31 days (heaviest ${worstMonth.name} ${fmt.seconds(worstMonth.beforeMs)} -> ${fmt.seconds(worstMonth.afterMs)}): ${list(reportsMonth)}.`,
        `Checks (${fmt.seconds(checkBefore)} -> ${fmt.seconds(checkAfter)}): ${list(checks)}.`,
        `--parquet (export of ${fmt.count(exported.written)} files, ${fmt.count(exported.rows)} rows in ${fmt.seconds(exportMs)}): reports over the last 31 days, ` +
          `every month's files -> only the range's months (${fmt.seconds(total(lastMonth, 'beforeMs'))} -> ${fmt.seconds(total(lastMonth, 'afterMs'))}): ${list(lastMonth)}.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
