/**
 * Crash matrix, warehouse side: `kill -9` of sync, backfill and export at seeded moments — a
 * moment in time, right after the N-th API request, inside the N-th commit (the warehouse's test
 * hook holds each transaction just before COMMIT), right after the N-th Parquet file — each
 * followed by running the same command again, as a user would. After every kill the warehouse
 * must be consistent; at the end it must equal an uninterrupted run, row for row, and the export
 * must equal the warehouse. The receiver's intake is killed in crash-receiver.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  CONTENT_COLUMNS,
  describeRun,
  duplicateKeys,
  queryRows,
  queryWarehouse,
  runsOf,
  seededRandom,
  startFixture,
  todayUtc,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { budget, reportFigure, reportTable, size } from './figures.js';
import { diffExportWithWarehouse, filesUnder, unreadableParquetFiles } from './parquet-reads.js';

const KILLS = { sync: size(5, 15), backfill: size(5, 15), export: size(5, 15) };
const PAUSE_ENV = 'VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS';
const today = todayUtc();
const BACKFILL_STREAMS = 'venue-devices-history,venue-users-history,rating-history,venue-devices-summary';
const BACKFILL_ARGS = ['backfill', '--from', addDays(today, -400), '--to', addDays(today, -1), '--streams', BACKFILL_STREAMS, '--window-days', '60'];

let fx: Fixture;
const random = seededRandom(2026);
const paths = (name: string) => ({ warehouse: join(fx.dir, name, 'warehouse.duckdb'), config: join(fx.dir, `${name}.config.json`) });

beforeAll(async () => {
  assertBuilt();
  // Latency stretches a run over a second or two, so moments in time land in every phase.
  fx = await startFixture({ sim: { seed: 41, venues: 2, days: 420, latencyMs: 25, reviseRecentDays: 3 } });
});
afterAll(async () => {
  await fx?.close();
});

type MomentKind = 'time' | 'request' | 'commit' | 'file';

interface Kill {
  readonly op: string;
  readonly moment: string;
  readonly killed: boolean;
  readonly ms: number;
  /** Commits the run had started (the last one was cut short when killed at a commit). */
  readonly commits: number;
  /** Duplicate keys right after the kill. */
  readonly duplicates: number;
  /** Export only: visible .parquet files that cannot be read, and hidden temp files left. */
  readonly unreadable?: number;
  readonly temps?: number;
}

const kills: Kill[] = [];
/** Runs after a kill that did not succeed on their own (would need a person to repair something). */
const repairs: string[] = [];

/** Runs `args` with `configPath` until killed at a moment of `kind` (parameter drawn from the seeded random). */
function killedRun(
  args: readonly string[],
  configPath: string,
  kind: MomentKind,
  scale: { durationMs: number; requests: number; commits: number; files?: number },
): Promise<CliResult> & { moment: string } {
  let moment: string;
  let run: Promise<CliResult>;
  const debug = [...args, '--log-level', 'debug'];
  switch (kind) {
    case 'time': {
      const ms = Math.round(150 + random() * Math.max(100, scale.durationMs - 150));
      moment = `${ms} ms`;
      run = fx.cli(args, { configPath, killAfterMs: ms });
      break;
    }
    case 'request': {
      const n = 1 + Math.floor(random() * Math.max(1, scale.requests - 1));
      moment = `request ${n}`;
      run = fx.cli(debug, { configPath, killWhenStderr: /"api request"/, killAfterMatches: n });
      break;
    }
    case 'commit': {
      const n = 1 + Math.floor(random() * Math.max(1, scale.commits - 1));
      moment = `commit ${n}`;
      run = fx.cli(args, { configPath, env: { ...fx.env, [PAUSE_ENV]: '400' }, killWhenStderr: /paused before commit/, killAfterMatches: n });
      break;
    }
    case 'file': {
      // An incremental export after a change writes a handful of files: kill within the first few.
      const n = 1 + Math.floor(random() * Math.min(4, Math.max(1, (scale.files ?? 1) - 1)));
      moment = `file ${n}`;
      run = fx.cli(debug, { configPath, killWhenStderr: /"partition written"/, killAfterMatches: n });
      break;
    }
  }
  return Object.assign(run, { moment });
}

/** A clean run's duration, requests and commits (the commit hook at 1 ms counts them). */
async function measure(
  args: readonly string[],
  configPath: string,
): Promise<{ run: CliResult; durationMs: number; requests: number; commits: number; files: number }> {
  const run = await fx.cli([...args, '--log-level', 'debug'], { configPath, env: { ...fx.env, [PAUSE_ENV]: '1' } });
  expect(run.code, describeRun(run)).toBe(0);
  const count = (re: RegExp) => run.stderr.split('\n').filter((line) => re.test(line)).length;
  return { run, durationMs: run.durationMs, requests: count(/"api request"/), commits: count(/paused before commit/), files: count(/"partition written"/) };
}

async function stateAfterKill(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  const [schema] = await queryRows(path, `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'sync_cursors'`);
  if (schema!.n === 0) return 0;
  const dup = await duplicateKeys(path);
  return dup.series + dup.summaries + dup.cursors;
}

/**
 * Kills `args` at `count` moments (kinds in turn), each run starting from what the last left.
 * A run that finished before its moment does not count; `afterFinish` gives the next command then
 * (a finished backfill is only run again with --force).
 */
async function killSeries(
  op: string,
  count: number,
  kinds: readonly MomentKind[],
  args: readonly string[],
  configPath: string,
  scale: Parameters<typeof killedRun>[3],
  after: (run: CliResult) => Promise<Partial<Kill>>,
  afterFinish: () => readonly string[] = () => args,
): Promise<void> {
  let landed = 0;
  let nextArgs = args;
  for (let attempt = 0; landed < count && attempt < count * 3; attempt++) {
    const kind = kinds[attempt % kinds.length]!;
    const run = killedRun(nextArgs, configPath, kind, scale);
    const result = await run;
    if (!result.killed && result.code !== 0) repairs.push(`${op} after a kill: ${describeRun(result)}`);
    if (result.killed) landed++;
    else nextArgs = afterFinish();
    kills.push({
      op,
      moment: run.moment,
      killed: result.killed,
      ms: result.durationMs,
      commits: result.stderr.split('\n').filter((l) => l.includes('paused before commit')).length,
      duplicates: 0,
      ...(await after(result)),
    });
  }
  expect(landed, `${op}: kills that landed`).toBe(count);
}

it(
  'sync: killed at seeded moments and run again, equals an uninterrupted sync',
  async () => {
    const main = paths('sync');
    const clean = paths('sync-clean');
    const sync = { startDate: addDays(today, -14) };
    fx.writeConfig({ warehousePath: main.warehouse, sync }, main.config);
    fx.writeConfig({ warehousePath: clean.warehouse, sync }, clean.config);
    const scale = await measure(['sync'], clean.config);
    await killSeries('sync', KILLS.sync, ['commit', 'time', 'request'], ['sync'], main.config, scale, async () => ({
      duplicates: await stateAfterKill(main.warehouse),
    }));
    const final = await fx.cli(['sync'], { configPath: main.config });
    if (final.code !== 0) repairs.push(`sync final: ${describeRun(final)}`);
    await compareWarehouses('sync', main.warehouse, clean.warehouse);
  },
  budget(120_000, 400_000),
);

it(
  'backfill: killed at seeded moments and run again, equals an uninterrupted backfill',
  async () => {
    const main = paths('backfill');
    const clean = paths('backfill-clean');
    // Month-grain summaries: a 400-day backfill is a few dozen requests per venue.
    const sync = { startDate: addDays(today, -400), summaryGrain: 'month' };
    fx.writeConfig({ warehousePath: main.warehouse, sync }, main.config);
    fx.writeConfig({ warehousePath: clean.warehouse, sync }, clean.config);
    const scale = await measure(BACKFILL_ARGS, clean.config);
    await killSeries(
      'backfill',
      KILLS.backfill,
      ['request', 'commit', 'time'],
      BACKFILL_ARGS,
      main.config,
      scale,
      async () => ({ duplicates: await stateAfterKill(main.warehouse) }),
      () => [...BACKFILL_ARGS, '--force'],
    );
    const final = await fx.cli(BACKFILL_ARGS, { configPath: main.config });
    if (final.code !== 0) repairs.push(`backfill final: ${describeRun(final)}`);
    await compareWarehouses('backfill', main.warehouse, clean.warehouse);
  },
  budget(120_000, 400_000),
);

it(
  'export: killed at seeded moments (some while the warehouse changes) and run again, equals the warehouse',
  async () => {
    const source = paths('backfill');
    const parquet = join(fx.dir, 'parquet');
    const cleanParquet = join(fx.dir, 'parquet-clean');
    const cleanConfig = join(fx.dir, 'export-clean.config.json');
    fx.writeConfig({ warehousePath: source.warehouse, sync: { startDate: addDays(today, -400), summaryGrain: 'month' } }, source.config);
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(cleanConfig, JSON.stringify({ ...JSON.parse(readFileSync(source.config, 'utf8')), parquet: { dir: cleanParquet } }));
    const scale = await measure(['export'], cleanConfig);
    let changes = 0;
    await killSeries('export', KILLS.export, ['file', 'time'], ['export'], source.config, scale, async () => {
      const files = filesUnder(parquet);
      const state = {
        unreadable: (await unreadableParquetFiles(parquet)).length,
        temps: files.filter((f) => !f.endsWith('.parquet') && !f.endsWith('.json') && !f.endsWith('.lock')).length,
      };
      // Every other kill, late data changes the last days: the next export is an incremental one.
      if (kills.filter((k) => k.op === 'export').length % 2 === 1) {
        fx.sim.revise();
        const sync = await fx.cli(['sync', '--streams', BACKFILL_STREAMS], { configPath: source.config });
        expect(sync.code, describeRun(sync)).toBe(0);
        changes++;
      }
      return state;
    });
    const final = await fx.cli(['export'], { configPath: source.config });
    if (final.code !== 0) repairs.push(`export final: ${describeRun(final)}`);
    const diff = await diffExportWithWarehouse(source.warehouse, parquet);
    const leftovers = filesUnder(parquet).filter((f) => !f.endsWith('.parquet') && f !== '_venue_etl_manifest.json');
    const exportKills = kills.filter((k) => k.op === 'export' && k.killed);
    reportFigure('crash-matrix', {
      op: 'export',
      kills: exportKills.length,
      warehouseChanges: changes,
      unreadableVisibleFiles: exportKills.reduce((n, k) => n + (k.unreadable ?? 0), 0),
      killsLeavingTempFiles: exportKills.filter((k) => (k.temps ?? 0) > 0).length,
      differingRows: diff.total,
      leftoverFiles: leftovers.length,
      manualRepairs: repairs.filter((r) => r.startsWith('export')).length,
    });
    expect(diff.differing).toEqual(Object.fromEntries(Object.keys(diff.differing).map((t) => [t, 0])));
    expect(exportKills.every((k) => k.unreadable === 0)).toBe(true);
    expect(leftovers).toEqual([]);
  },
  budget(120_000, 400_000),
);

afterAll(() => {
  reportTable('kills', kills);
  const landed = kills.filter((k) => k.killed);
  reportFigure('crash-matrix-warehouse', {
    kills: landed.length,
    atCommit: landed.filter((k) => k.moment.startsWith('commit')).length,
    afterParquetFile: landed.filter((k) => k.moment.startsWith('file')).length,
    duplicateKeysAfterKills: kills.reduce((n, k) => n + k.duplicates, 0),
    manualRepairs: repairs.length,
  });
  expect(repairs, repairs.join('\n\n')).toEqual([]);
  expect(kills.reduce((n, k) => n + k.duplicates, 0)).toBe(0);
});

async function compareWarehouses(op: string, path: string, cleanPath: string): Promise<void> {
  const [mine, theirs] = [await checksums(path, CONTENT_COLUMNS), await checksums(cleanPath, CONTENT_COLUMNS)];
  const differingTables = Object.keys(theirs).filter((t) => JSON.stringify(mine[t]) !== JSON.stringify(theirs[t]));
  // Rows that differ, per table: the symmetric difference of the two files' rows.
  let differingRows = 0;
  for (const table of differingTables) {
    const columns = CONTENT_COLUMNS[table as keyof typeof CONTENT_COLUMNS];
    const [, [row]] = await queryWarehouse(
      path,
      `ATTACH '${cleanPath}' AS clean (READ_ONLY)`,
      `SELECT count(*)::INTEGER AS n FROM ((SELECT ${columns} FROM ${table} EXCEPT ALL SELECT ${columns} FROM clean.${table})
         UNION ALL (SELECT ${columns} FROM clean.${table} EXCEPT ALL SELECT ${columns} FROM ${table}))`,
    );
    differingRows += Number(row!.n);
  }
  const dup = await duplicateKeys(path);
  const running = (await runsOf(path)).filter((r) => r.status === 'running').length;
  const landed = kills.filter((k) => k.op === op && k.killed);
  reportFigure('crash-matrix', {
    op,
    kills: landed.length,
    atCommit: landed.filter((k) => k.moment.startsWith('commit')).length,
    differingRows,
    duplicateKeys: dup.series + dup.summaries + dup.cursors,
    runsLeftRunning: running,
    manualRepairs: repairs.filter((r) => r.startsWith(op)).length,
  });
  expect(differingTables).toEqual([]);
  expect(dup).toEqual({ series: 0, summaries: 0, cursors: 0 });
  expect(running).toBe(0);
}
