import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { resolveConfig, type ApiReadyConfig } from '../config/index.js';
import { buildDashboard, writeDashboardFile } from '../dashboard/index.js';
import { exportParquet, exportTotals } from '../export/index.js';
import { packageInfo } from '../infra/package-root.js';
import type { Logger } from '../log/index.js';
import { runSync } from '../runner/sync-job.js';
import type { RunResult } from '../runner/execute-run.js';
import { startSimulator } from '../simulator/index.js';
import { jsonRows, runReadOnly, withQuerySource } from '../readside/index.js';
import { sql } from '../warehouse/sql-files.js';

export interface DemoOptions {
  /** Where the warehouse, the Parquet files and a config for follow-up commands go. */
  readonly dir: string;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  readonly venues?: number;
  readonly seed?: number;
}

export interface DemoResult {
  readonly sync: RunResult;
  readonly report: string;
  /** The dashboard of the demo warehouse (one self-contained HTML file). */
  readonly dashboard: string;
}

/**
 * The whole product on one machine, with no config and no network: the built-in simulator on a
 * free loopback port, one nightly sync into `<dir>/warehouse.duckdb`, a Parquet export into
 * `<dir>/parquet`, and a short report. Running it again is an incremental run (the simulator's
 * world is the same for the same seed, so nothing changes).
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  mkdirSync(options.dir, { recursive: true });
  const simulator = await startSimulator({ seed: options.seed ?? 42, venues: options.venues ?? 6, days: 120 });
  try {
    const warehousePath = join(options.dir, 'warehouse.duckdb');
    const parquetDir = join(options.dir, 'parquet');
    // The world's venue names go into the config: the reports and the dashboard show them.
    const venueEntries = simulator.world.venues.map((v) => ({ id: v.id, name: v.name }));
    const config = resolveConfig(
      {
        api: { baseUrl: simulator.url, token: simulator.token, concurrency: 8 },
        scope: { venues: venueEntries, projects: simulator.world.projects.map((p) => p.id) },
        warehouse: { path: warehousePath },
        parquet: { dir: parquetDir },
      },
      {},
      'demo config',
    ) as ApiReadyConfig;
    const sync = await runSync(config, options.logger, { job: 'demo-sync', ...(options.signal ? { signal: options.signal } : {}) });
    const exported = exportTotals(await exportParquet({ warehouse: warehousePath, dir: parquetDir, logger: options.logger }));
    // A config for the read-side commands (sql, report, check, status) on the demo's files.
    const followUp = join(options.dir, 'venue-etl.config.json');
    // Relative paths in a config are resolved against its folder: the files sit beside it.
    // The venues with their names, so that the follow-up reports show them too.
    const followUpConfig = { scope: { venues: venueEntries }, warehouse: { path: 'warehouse.duckdb' }, parquet: { dir: 'parquet' } };
    writeFileSync(followUp, `${JSON.stringify(followUpConfig, null, 2)}\n`);

    const [tables, venues] = await withQuerySource(config, false, async (source) => [
      jsonRows(await runReadOnly(source.connection, sql('demo/table-counts.sql'))),
      jsonRows(await runReadOnly(source.connection, sql('demo/venue-summary.sql'))),
    ]);
    const dashboard = writeDashboardFile(
      join(options.dir, 'dashboard.html'),
      (await buildDashboard(config, false, { title: 'venue-etl demo dashboard', staleAfterDays: config.sync.staleAfterDays })).html,
    );
    const lines = [
      '',
      `venue-etl demo: simulator at ${simulator.url} (${simulator.world.venues.length} venues, ${simulator.world.projects.length} projects)`,
      '',
      `sync ${sync.status}: ${sync.slices.done} slices, ${sync.requests} requests (${sync.retries} retries), ${sync.rowsWritten} rows written in ${(sync.durationMs / 1000).toFixed(1)}s`,
      `export: ${exported.written} Parquet files written, ${exported.unchanged} unchanged, ${(exported.bytes / 1e6).toFixed(1)} MB in ${parquetDir}`,
      '',
      'warehouse rows:',
      ...tables.map((t) => `  ${String(t.table).padEnd(16)} ${String(t.rows).padStart(8)}`),
      '',
      'last 7 days per venue:',
      `  ${'venue'.padEnd(28)} ${'detected'.padStart(9)} ${'authenticated'.padStart(13)} ${'logins'.padStart(7)} ${'ratings'.padStart(7)}`,
      ...venues.map(
        (v) =>
          `  ${String(v.venue)
            .slice(0, 28)
            .padEnd(
              28,
            )} ${String(v.detected).padStart(9)} ${String(v.authenticated).padStart(13)} ${String(v.logins).padStart(7)} ${String(v.ratings).padStart(7)}`,
      ),
      '',
      `dashboard: ${dashboard}`,
      '  (one self-contained HTML file: open it in a browser, offline)',
      '',
      ...nextSteps(options.dir),
      '',
    ];
    return { sync, report: lines.join('\n'), dashboard };
  } finally {
    await simulator.close();
  }
}

/**
 * How to run venue-etl from `dir`, as the next steps print it. `npx venue-etl` runs a checkout's
 * own bin (package.json "bin") from any folder inside the checkout; anywhere else npx would look
 * for venue-etl in the npm registry, so outside a checkout (an installed package, whose root is
 * in a node_modules folder) or outside its folder the command is `venue-etl` itself.
 */
export function runCommandFrom(dir: string, root = packageInfo().root): { readonly command: string; readonly linkNote: boolean } {
  const checkout = !resolve(root).split(sep).includes('node_modules');
  const fromRoot = relative(resolve(root), resolve(dir));
  const inside = fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
  if (checkout && inside) return { command: 'npx venue-etl', linkNote: false };
  // A checkout run on a folder outside it: venue-etl is on PATH only once linked.
  return { command: 'venue-etl', linkNote: checkout };
}

/**
 * What to try next, each line at most 80 columns so that it can be copied from a classic terminal
 * whole: from the demo's folder, where the follow-up config is the default one, no command needs
 * `--config PATH` (which made the lines 100+ columns).
 */
function nextSteps(dir: string): string[] {
  const { command, linkNote } = runCommandFrom(dir);
  const steps: [string, string?][] = [
    ['report', 'list the named reports'],
    ['report daily-devices'],
    ['sql "SELECT stream, count(*) FROM series_points GROUP BY ALL"'],
    ['sql "SELECT count(*) FROM series_points" --parquet'],
    ['check'],
    ['status'],
    ['dashboard --out my-dashboard.html'],
    ['demo --dir .', 'again: incremental, re-reads only the lookback'],
  ];
  return [
    'next:',
    `  cd ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`}`,
    ...steps.map(([args, comment]) => `  ${command} ${args}${comment === undefined ? '' : `   # ${comment}`}`),
    ...(linkNote ? ['  # venue-etl: `npm link` in the checkout puts it on your PATH'] : []),
  ];
}
