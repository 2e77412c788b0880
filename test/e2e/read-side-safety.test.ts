/**
 * The read commands through the built CLI, as a hostile or careless user would run them: nothing
 * is written anywhere (not the lake's data files, its manifest, a new file, the warehouse), a
 * long query stops on SIGINT/SIGTERM and at its time limit, a memory-hungry one at its memory
 * limit, and the lock and schema refusals say what to do.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/index.js';
import { CLI, runCli, runOnFile, tempDir, useSeededCli, writeConfig } from '../readside/fixture.js';
import { assertBuilt, REPO_ROOT } from './harness.js';

/** A query that runs for minutes: only an interrupt or the time limit ends it within the test. */
const ENDLESS = 'SELECT count(*) AS n FROM range(200000000000)';

function digest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Every file under `dir` with its digest: what a read command must leave exactly as it was. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = digest(join(entry.parentPath, entry.name));
  }
  return files;
}

interface Stopped {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly stdout: string;
  readonly peakRssKb: number;
}

/**
 * Runs the CLI with `--log-level debug`; once it says its query runs, sends `signal` (if any).
 * Samples the child's peak resident set from /proc while it runs.
 */
function runWatched(args: readonly string[], signal?: NodeJS.Signals): Promise<Stopped> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args, '--log-level', 'debug'], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  let peakRssKb = 0;
  let sent = false;
  const sample = setInterval(() => {
    const match = /VmHWM:\s+(\d+) kB/.exec(safeRead(`/proc/${child.pid}/status`));
    if (match) peakRssKb = Math.max(peakRssKb, Number(match[1]));
  }, 20);
  // Past this the test has failed: the command ignored the signal or its limit.
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (signal && !sent && stderr.includes('query running')) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, exitSignal) => {
      clearInterval(sample);
      clearTimeout(guard);
      resolve({ code, signal: exitSignal, stderr, stdout, peakRssKb });
    });
  });
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

describe('a read command writes nothing anywhere', () => {
  const { dir, warehouse, config } = useSeededCli();
  const lake = join(dir, 'parquet');
  let dataFile = '';
  let before: Record<string, string> = {};
  let warehouseDigest = '';
  let report = '';

  beforeAll(async () => {
    const exported = await runCli(['export', '--config', config]);
    expect(exported.code, exported.stderr).toBe(0);
    const partition = readdirSync(join(lake, 'series_points'), { recursive: true, withFileTypes: true }).find(
      (e) => e.isFile() && e.name.endsWith('.parquet') && e.parentPath.includes('venue-devices-history'),
    );
    dataFile = join(partition!.parentPath, partition!.name);
    before = snapshot(lake);
    warehouseDigest = digest(warehouse);
    report = (await runCli(['report', 'daily-devices', '--parquet', '--format', 'csv', '--config', config])).stdout;
    expect(report.split('\n').length).toBeGreaterThan(10);
  });

  const sql = (query: string, ...options: string[]) => runCli(['sql', query, '--config', config, ...options]);

  // Each was exit 0 before the lake's instance was sealed to its data files (RELIABILITY.md).
  it.each([
    [
      'COPY over a data file',
      () => `COPY (SELECT * REPLACE (value * 1000 AS value) FROM read_parquet('${dataFile}')) TO '${dataFile}' (FORMAT parquet, OVERWRITE true)`,
    ],
    ['COPY over a data file in place', () => `COPY (SELECT 1 AS value) TO '${dataFile}' (FORMAT parquet, USE_TMP_FILE false)`],
    ['EXPLAIN ANALYZE COPY over a data file', () => `EXPLAIN ANALYZE COPY (SELECT 1 AS value) TO '${dataFile}' (FORMAT parquet, USE_TMP_FILE false)`],
    ['PREPARE and EXECUTE a COPY', () => `PREPARE p AS COPY (SELECT 1 AS value) TO '${dataFile}' (FORMAT parquet, USE_TMP_FILE false); EXECUTE p`],
    ['a new data file in a partition', () => `COPY (SELECT * FROM series_points LIMIT 3) TO '${join(dirname(dataFile), 'data-evil.parquet')}'`],
    ['replacing the manifest', () => `COPY (SELECT 1 AS x) TO '${join(lake, '_venue_etl_manifest.json')}' (FORMAT json, OVERWRITE true)`],
    ['ATTACH creating a file', () => `ATTACH '${join(lake, 'x.duckdb')}'`],
    ['ATTACH a data file', () => `ATTACH '${dataFile}' AS d`],
    ['EXPORT DATABASE into the lake', () => `EXPORT DATABASE '${join(lake, 'dump')}'`],
  ])('sql --parquet refuses %s (VENUE_SQL_READ_ONLY), and the lake is byte for byte as it was', async (_name, query) => {
    const run = await sql(query(), '--parquet');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('VENUE_SQL_READ_ONLY');
    expect(snapshot(lake)).toEqual(before);
    expect(digest(warehouse)).toBe(warehouseDigest);
  });

  it('writes no log file into the lake (DuckDB aborts the command instead: its log writer throws on the refusal)', async () => {
    const run = await sql(`SELECT * FROM enable_logging(storage = 'file', storage_path = '${join(lake, 'logs')}')`, '--parquet');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`Cannot access directory \\"${join(lake, 'logs')}\\"`);
    expect(snapshot(lake)).toEqual(before);
  });

  it('leaves reports on the lake as they were', async () => {
    expect((await runCli(['report', 'daily-devices', '--parquet', '--format', 'csv', '--config', config])).stdout).toBe(report);
  });

  it.each([[[] as string[]], [['--parquet']]])('sql %j refuses to change its limits, and reads on', async (options) => {
    const refused = await sql(`SET memory_limit = '100GB'`, ...options);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain("VENUE_SQL_READ_ONLY: a read command's DuckDB settings are fixed");
    const read = await sql(`SET VARIABLE n = 2; SELECT getvariable('n') + 1 AS three`, '--format', 'csv', ...options);
    expect(read.stdout, read.stderr).toBe('three\r\n3\r\n');
  });

  it('says which file a refused read tried to open, without calling it a write', async () => {
    const run = await sql(`SELECT * FROM read_csv('${join(dir, 'venue-etl.config.json')}')`, '--parquet');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`DuckDB refused to open ${join(dir, 'venue-etl.config.json')}`);
    expect(run.stderr).not.toMatch(/writing statement/);
  });
});

describe('parquet.dir apart from the warehouse', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it.each([
    ['the warehouse folder', (d: string) => ({ warehouse: { path: join(d, 'data', 'warehouse.duckdb') }, parquet: { dir: join(d, 'data') } })],
    ['a folder holding it', (d: string) => ({ warehouse: { path: join(d, 'data', 'warehouse.duckdb') }, parquet: { dir: d } })],
    ['the root', (d: string) => ({ warehouse: { path: join(d, 'data', 'warehouse.duckdb') }, parquet: { dir: '/' } })],
  ])('is refused when it is %s (exit 2, with the fix), before anything is opened', async (_name, paths) => {
    const config = writeConfig(dir, paths(dir));
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'warehouse.duckdb'), 'not opened');
    const run = await runCli([
      'sql',
      '--parquet',
      `COPY (SELECT 'x' AS a) TO '${join(dir, 'data', 'warehouse.duckdb')}' (FORMAT csv, OVERWRITE true)`,
      '--config',
      config,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('parquet.dir:');
    expect(run.stderr).toContain('Set parquet.dir to a folder of its own');
    expect(readFileSync(join(dir, 'data', 'warehouse.duckdb'), 'utf8')).toBe('not opened');
  });
});

describe('a long or large query stops', () => {
  const { dir, warehouse, config } = useSeededCli();
  const limited = join(dir, 'limited.config.json');

  beforeAll(async () => {
    writeFileSync(limited, readFileSync(config, 'utf8').replace(/}$/, ', "query": { "memoryLimit": "256MB", "timeoutSeconds": 2 } }'));
    const exported = await runCli(['export', '--config', config]);
    expect(exported.code, exported.stderr).toBe(0);
  });

  it.each([
    ['SIGINT', [] as string[]],
    ['SIGTERM', ['--parquet']],
  ] as const)(
    'on %s %j: the running query is interrupted (exit 130, VENUE_SQL_INTERRUPTED)',
    async (signal, options) => {
      const run = await runWatched(['sql', ENDLESS, '--config', config, ...options], signal);
      expect(run.signal).toBeNull();
      expect(run.code, run.stderr).toBe(130);
      expect(run.stderr).toContain(`VENUE_SQL_INTERRUPTED: the query was interrupted (received ${signal})`);
      expect(run.stdout).toBe('');
    },
    180_000,
  );

  it('at its time limit: --timeout, or query.timeoutSeconds (VENUE_SQL_TIMEOUT, exit 1)', async () => {
    const flag = await runWatched(['sql', ENDLESS, '--timeout', '1', '--config', config]);
    expect(flag.code, flag.stderr).toBe(1);
    expect(flag.stderr).toContain('VENUE_SQL_TIMEOUT: the query ran past its time limit of 1s');
    const key = await runWatched(['sql', ENDLESS, '--parquet', '--config', limited]);
    expect(key.code, key.stderr).toBe(1);
    expect(key.stderr).toContain('VENUE_SQL_TIMEOUT: the query ran past its time limit of 2s');
    // A statement that is not a SELECT runs first on the dry run (dry-run.ts): stopped there too.
    const dry = await runWatched(['sql', `EXPLAIN ANALYZE ${ENDLESS}`, '--parquet', '--timeout', '1', '--config', config]);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stderr).toContain('VENUE_SQL_TIMEOUT');
  }, 180_000);

  it('at its memory limit, instead of growing (VENUE_SQL_OUT_OF_MEMORY)', async () => {
    // Before: DuckDB's default limit (80 % of the machine) let this reach 12.6 GB resident.
    const run = await runWatched(['sql', 'SELECT list(range) AS l FROM range(200000000)', '--timeout', '600', '--config', limited]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('VENUE_SQL_OUT_OF_MEMORY: the query needs more than query.memoryLimit (256MB)');
    // 256MB of DuckDB plus Node and the binding: far below what the query asks for (> 1.6 GB).
    expect(run.peakRssKb).toBeGreaterThan(0);
    expect(run.peakRssKb).toBeLessThan(1024 * 1024);
  }, 180_000);

  it('names the command that holds the warehouse to the writer it locks out', async () => {
    const holder = spawn(process.execPath, [CLI, 'sql', ENDLESS, '--config', config, '--log-level', 'debug'], { cwd: REPO_ROOT });
    let stderr = '';
    await new Promise<void>((resolve) => {
      holder.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('query running')) resolve();
      });
    });
    try {
      const error = await openWarehouse(warehouse).then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string; details?: Record<string, unknown> },
      );
      expect(error?.code).toBe('VENUE_WAREHOUSE_LOCKED');
      expect(error?.message).toContain(`is in use by \`venue-etl sql\` (PID ${holder.pid})`);
      expect(error?.details).toMatchObject({ pid: holder.pid, command: 'venue-etl sql' });
    } finally {
      holder.kill('SIGINT');
      await new Promise((resolve) => holder.on('close', resolve));
    }
  }, 180_000);
});

describe('a warehouse this build cannot read', () => {
  const { dir, warehouse } = useSeededCli();
  const newer = join(dir, 'newer');
  const newerConfig = join(dir, 'newer.config.json');

  beforeAll(async () => {
    mkdirSync(newer);
    copyFileSync(warehouse, join(newer, 'warehouse.duckdb'));
    await runOnFile(join(newer, 'warehouse.duckdb'), `INSERT INTO schema_migrations VALUES (999, 'from_the_future', now())`);
    writeFileSync(newerConfig, JSON.stringify({ warehouse: { path: join(newer, 'warehouse.duckdb') }, parquet: { dir: join(newer, 'parquet') } }));
  });

  it.each([['export'], ['sql', 'SELECT 1 AS a'], ['report', 'daily-devices'], ['status']])(
    'a newer schema is refused by %s (VENUE_WAREHOUSE_TOO_NEW), and export makes no folder',
    async (...args) => {
      const run = await runCli([...args, '--config', newerConfig]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('VENUE_WAREHOUSE_TOO_NEW');
      expect(existsSync(join(newer, 'parquet'))).toBe(false);
    },
  );

  it('export on a truncated warehouse fails before it makes the lake folder', async () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'warehouse.duckdb'), readFileSync(warehouse).subarray(0, 4096));
    const brokenConfig = writeConfig(broken, { warehouse: { path: join(broken, 'warehouse.duckdb') }, parquet: { dir: join(broken, 'parquet') } });
    const run = await runCli(['export', '--config', brokenConfig]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/VENUE_WAREHOUSE_/);
    expect(existsSync(join(broken, 'parquet'))).toBe(false);
    expect(statSync(join(broken, 'warehouse.duckdb')).size).toBe(4096);
  });
});
