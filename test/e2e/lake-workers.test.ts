/**
 * Many workers, one lake (docs/lake.md): two tenants (two simulated APIs, two
 * configs with `parquet.writer` tenant-a / tenant-b) and a 3-way shard of tenant-a, each a real
 * process with its own warehouse, export into ONE lake. One DuckDB glob per table then reads
 * exactly the union of the workers' warehouses, without duplicates; roles and accounts come
 * only from shard 0 of the sharded tenant (and from the unsharded one). One export is killed
 * with SIGKILL part-way and run again: the lake ends complete and duplicate-free.
 *
 * The lake is a parameter (test/e2e/lake.ts): a local folder here; `s3Lake(prefix)` runs the
 * same case against the test object store.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryWarehouse, startFixture, todayUtc, WRITTEN_COLUMNS, type CliResult, type Fixture } from './harness.js';
import { localLake, type LakeLocation } from './lake.js';

const SHARDS = 3;
const DAYS = 10;

/** Every stored column of the four tables the workers share the lake for, and each table's key. */
const TABLES = {
  series_points: { columns: WRITTEN_COLUMNS.series_points, key: 'venue_id, stream, metric, granularity, ts' },
  summary_values: { columns: WRITTEN_COLUMNS.summary_values, key: 'venue_id, stream, metric, period_start, period_end' },
  venue_roles: { columns: WRITTEN_COLUMNS.venue_roles, key: 'role_id, venue_id, valid_from' },
  accounts: { columns: WRITTEN_COLUMNS.accounts, key: 'account_id' },
} as const;
type Table = keyof typeof TABLES;
const TABLE_NAMES = Object.keys(TABLES) as Table[];

/** A row as one comparable text, the same in the warehouse and in Parquet (ENUMs come back as VARCHAR). */
const rowText = (table: Table): string =>
  `list_value(${TABLES[table].columns
    .split(', ')
    .map((column) => `(${column})::VARCHAR`)
    .join(', ')})::VARCHAR AS r`;

interface Worker {
  /** The writer id of the naming convention: `parquet.writer`, then `shard<I>of<N>`. */
  readonly id: string;
  readonly fx: Fixture;
  readonly config: string;
  readonly warehouse: string;
  readonly env: NodeJS.ProcessEnv;
  readonly shard?: string;
}

async function onLake<T>(work: (query: (sql: string) => Promise<string[]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`SET TimeZone = 'UTC'`);
    return await work(async (sql) => ((await connection.runAndReadAll(sql)).getRowObjectsJson() as { r: unknown }[]).map((row) => String(row.r)));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function warehouseRows(path: string, table: Table): Promise<string[]> {
  const [, rows] = await queryWarehouse(path, `SET TimeZone = 'UTC'`, `SELECT ${rowText(table)} FROM ${table}`);
  return rows.map((row) => String(row.r));
}

function lakeWorkersSuite(makeLake: (dir: string) => Promise<LakeLocation>): void {
  let tenantA: Fixture;
  let tenantB: Fixture;
  let lake: LakeLocation;
  let copy: string;
  const workers: Worker[] = [];
  const syncs: CliResult[] = [];
  const exports: CliResult[] = [];
  let killed: CliResult;
  let rerun: CliResult;

  const exportRun = (worker: Worker, options: { killAfterMs?: number } = {}) =>
    worker.fx.cli(['export'], {
      configPath: worker.config,
      env: worker.shard === undefined ? worker.env : { ...worker.env, VENUE_ETL_SHARD: worker.shard },
      ...options,
    });

  beforeAll(async () => {
    assertBuilt();
    const today = todayUtc();
    const sync = { startDate: addDays(today, -DAYS), lookbackDays: 2, windowDays: 7 };
    // Two tenants: two APIs (two tokens), different venues, projects and accounts.
    tenantA = await startFixture({ sim: { seed: 16, venues: 9, days: 30 }, config: { sync } });
    tenantB = await startFixture({ sim: { seed: 61, venues: 4, days: 30 }, config: { sync } });
    lake = await makeLake(join(tenantA.dir, 'lake'));
    const worker = (fx: Fixture, name: string, writer: string, id: string, shard?: string): Worker => {
      const warehouse = join(fx.dir, name, 'warehouse.duckdb');
      const config = fx.writeConfig({ warehousePath: warehouse }, join(fx.dir, `${name}.config.json`));
      const document = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
      writeFileSync(config, `${JSON.stringify({ ...document, parquet: lake.parquet(writer) }, null, 2)}\n`);
      return { id, fx, config, warehouse, env: { ...fx.env, ...lake.env }, ...(shard === undefined ? {} : { shard }) };
    };
    workers.push(worker(tenantB, 'tenant-b', 'tenant-b', 'tenant-b'));
    for (let index = 0; index < SHARDS; index++) {
      workers.push(worker(tenantA, `shard-${index}`, 'tenant-a', `tenant-a-shard${index}of${SHARDS}`, `${index}/${SHARDS}`));
    }
    syncs.push(
      ...(await Promise.all(
        workers.map((w) => w.fx.cli(w.shard === undefined ? ['sync'] : ['sync', '--shard', w.shard], { configPath: w.config, env: w.env, timeoutMs: 120_000 })),
      )),
    );
    // Every worker exports at once into the one lake; shard 1's export is killed part-way
    // (or, on a fast machine, after it finished: then only the end state below is checked).
    const victim = workers[2]!;
    const [killedRun, ...others] = await Promise.all([
      exportRun(victim, { killAfterMs: 1_500 }),
      ...workers.filter((w) => w !== victim).map((w) => exportRun(w)),
    ]);
    killed = killedRun!;
    exports.push(...others);
    rerun = await exportRun(victim);
    copy = await lake.localCopy();
  }, 300_000);

  afterAll(async () => {
    await lake?.close();
    await tenantA?.close();
    await tenantB?.close();
  });

  it('every worker syncs and exports; the killed export is finished by its rerun', () => {
    for (const run of syncs) expect(run.code, describeRun(run)).toBe(0);
    for (const run of exports) expect(run.code, describeRun(run)).toBe(0);
    expect(killed.killed || killed.code === 0, describeRun(killed)).toBe(true);
    expect(rerun.code, describeRun(rerun)).toBe(0);
  });

  it('holds one manifest per writer and data files named by their writer only', () => {
    const ids = workers.map((w) => w.id).sort();
    const manifests = readdirSync(copy)
      .filter((name) => name.startsWith('_venue_etl_manifest'))
      .sort();
    expect(manifests).toEqual(ids.map((id) => `_venue_etl_manifest-${id}.json`).sort());
    const allowed = new Set(ids.map((id) => `data-${id}.parquet`));
    const files = readdirSync(copy, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.parquet'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(allowed.has(file.name), join(file.parentPath, file.name)).toBe(true);
  });

  it.each(TABLE_NAMES)('one glob over %s reads exactly the union of the workers’ warehouses, without duplicates', async (table) => {
    const expected: string[] = [];
    for (const w of workers) expected.push(...(await warehouseRows(w.warehouse, table)));
    expect(expected.length).toBeGreaterThan(0);
    const glob = `read_parquet('${join(copy, table)}/**/*.parquet', hive_partitioning = true)`;
    const [actual, duplicateKeys] = await onLake(async (query) => [
      await query(`SELECT ${rowText(table)} FROM ${glob}`),
      await query(`SELECT count(*)::VARCHAR AS r FROM (SELECT 1 FROM ${glob} GROUP BY ${TABLES[table].key} HAVING count(*) > 1)`),
    ]);
    expect(actual.length).toBe(expected.length);
    expect([...actual].sort()).toEqual([...expected].sort());
    expect(duplicateKeys).toEqual(['0']);
  });

  it('has roles and accounts from shard 0 of the sharded tenant only (and from the unsharded tenant)', async () => {
    for (const table of ['venue_roles', 'accounts'] as const) {
      const writers = await onLake((query) =>
        query(`SELECT DISTINCT parse_filename(filename) AS r FROM read_parquet('${join(copy, table)}/**/*.parquet', filename = true) ORDER BY 1`),
      );
      expect(writers, table).toEqual([`data-tenant-a-shard0of${SHARDS}.parquet`, 'data-tenant-b.parquet']);
    }
    for (const w of workers.slice(2)) {
      expect(await warehouseRows(w.warehouse, 'accounts'), w.id).toEqual([]);
    }
  });

  it('sql --parquet over the lake reads every writer’s rows', async () => {
    const reader = tenantA.writeConfig({}, join(tenantA.dir, 'reader.config.json'));
    const document = JSON.parse(readFileSync(reader, 'utf8')) as Record<string, unknown>;
    writeFileSync(reader, JSON.stringify({ ...document, parquet: { dir: copy } }));
    let total = 0;
    for (const w of workers) total += (await warehouseRows(w.warehouse, 'series_points')).length;
    const run = await tenantA.cli(['sql', '--parquet', '--format', 'csv', 'SELECT count(*) AS n FROM series_points'], { configPath: reader });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toBe(`n\r\n${total}\r\n`);
  });
}

describe('many workers, one lake in a local folder', () => {
  lakeWorkersSuite((dir) => Promise.resolve(localLake(dir)));
});
