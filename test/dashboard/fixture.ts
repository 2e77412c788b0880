/**
 * A warehouse built with the simulator (the demo: simulator + nightly sync + Parquet export, in
 * this process), and the dashboard the built CLI makes of it. Hourly rows are what a one-day
 * window loads; the nightly job does not load them, so `withHourlyRows` adds a day of them for
 * one venue, as that load would, directly in the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { runDemo } from '../../src/demo/demo.js';
import { createLogger } from '../../src/log/index.js';
import { sql } from '../../src/warehouse/sql-files.js';
import { rebuildPeakHoursRollup, writesSeries } from '../peak-hours-rollup.js';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const CLI = join(repoRoot, 'dist', 'src', 'cli.js');

export interface DemoWarehouse {
  readonly dir: string;
  readonly warehouse: string;
  readonly config: string;
  cleanup(): void;
}

export async function demoWarehouse(venues = 8): Promise<DemoWarehouse> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-dashboard-'));
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  await runDemo({ dir, venues, seed: 7, logger: createLogger({ level: 'silent', destination: quiet }) });
  return {
    dir,
    warehouse: join(dir, 'warehouse.duckdb'),
    config: join(dir, 'venue-etl.config.json'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs statements on the file with its own instance, closed afterwards. */
export async function onFile(path: string, statements: readonly string[]): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    let rows: Record<string, unknown>[] = [];
    for (const statement of statements) rows = (await connection.runAndReadAll(statement)).getRowObjectsJson() as Record<string, unknown>[];
    if (writesSeries(statements)) await rebuildPeakHoursRollup(connection);
    return rows;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The last day's 24 UTC hours of devices and logins for `venue`, at hour grain (as a one-day window stores them). */
export async function withHourlyRows(warehouse: string, venue: string): Promise<string> {
  const [last] = await onFile(warehouse, [`SELECT strftime(max(timezone('UTC', ts))::DATE, '%Y-%m-%d') AS day FROM series_points`]);
  const day = String(last!.day);
  await onFile(warehouse, [
    `INSERT INTO series_points
       SELECT '${venue}'::UUID, s.stream, s.metric, 'hour', TIMESTAMPTZ '${day} 00:00:00+00' + to_hours(h.h::INTEGER),
              (10 + h.h * 3 + length(s.metric))::DOUBLE, 'test-hourly', now()
         FROM (VALUES ('venue-devices-history', 'detected'), ('venue-devices-history', 'authenticated'), ('venue-users-history', 'logins')) s(stream, metric),
              range(24) h(h)`,
    // Written by hand, not by a load: the daily rollup the reports read is summed again.
    sql('rollups/series-daily-rebuild.sql'),
  ]);
  return day;
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], cwd = repoRoot): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The JSON the page embeds, read back the way the page reads it. */
export function embeddedData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('the page has no #dashboard-data element');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

export function readPage(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every chart of the page, by its element id. */
export const CHART_IDS: readonly string[] = [
  'chart-devices',
  'chart-auth-share',
  'chart-logins',
  'chart-login-methods',
  'chart-confirmed-returning',
  'chart-rating-average',
  'chart-rating-count',
  'chart-rating-distribution',
  'chart-rating-funnel',
  'chart-embeds',
  'chart-peak-hours',
  'chart-ranking',
  'chart-coverage',
];
