/**
 * A fleet into one s3:// lake, as real processes: tenant A (one worker) and tenant B in three
 * shards sync from the simulator, each into its own warehouse, then export at the same time
 * into one prefix of the real S3-compatible server (test/s3-server.ts); one shard's export is
 * killed (SIGKILL) midway and run again. One glob per table over the lake then reads exactly the
 * union of the four warehouses (each row as often as the warehouses hold it), and roles and
 * accounts of tenant B come from shard 0 only.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectStore, parseS3Target, type S3Target } from '../../src/lake/index.js';
import { addDays, assertBuilt, describeRun, startFixture, todayUtc, type CliResult, type Fixture } from '../e2e/harness.js';
import { S3_SERVER_START_TIMEOUT_MS, s3Server, type S3Server } from '../s3-server.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface Worker {
  readonly name: string;
  readonly config: string;
  readonly warehouse: string;
  readonly shard?: string;
}

let server: S3Server;
let fx: Fixture;
let target: S3Target;
const workers: Worker[] = [];
let killed: CliResult;
let exports: CliResult[];
let lakeDir: string;

beforeAll(async () => {
  assertBuilt();
  server = await s3Server();
  fx = await startFixture({
    sim: { seed: 16, venues: 9, days: 30 },
    config: { sync: { startDate: addDays(todayUtc(), -10), lookbackDays: 2, windowDays: 7 } },
  });
  const lake = `s3://${server.bucket}/tests/${randomUUID()}`;
  const parsed = parseS3Target(lake);
  if (!('target' in parsed)) throw new Error(parsed.problem);
  target = parsed.target;
  const worker = (name: string, venues: readonly string[], writer: string, shard?: string): Worker => {
    const warehouse = join(fx.dir, name, 'warehouse.duckdb');
    const config = fx.writeConfig({ warehousePath: warehouse, scope: { venues } }, join(fx.dir, `${name}.config.json`));
    const document = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
    document.parquet = { dir: lake, writer, s3: { endpoint: server.endpoint, forcePathStyle: true } };
    writeFileSync(config, JSON.stringify(document));
    return { name, config, warehouse, ...(shard ? { shard } : {}) };
  };
  workers.push(worker('tenant-a', fx.venues.slice(0, 4), 'tenant-a'));
  for (let i = 0; i < 3; i++) workers.push(worker(`tenant-b-${i}`, fx.venues.slice(4), 'tenant-b', `${i}/3`));

  const env = { ...fx.env, AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey };
  const shardArgs = (w: Worker): string[] => (w.shard ? ['--shard', w.shard] : []);
  const syncs = await Promise.all(workers.map((w) => fx.cli(['sync', ...shardArgs(w)], { configPath: w.config, timeoutMs: 120_000 })));
  for (const run of syncs) expect(run.code, describeRun(run)).toBe(0);

  // All four export at once; tenant B's shard 1 is killed after its second upload.
  const victim = workers[2]!;
  const runs = workers.map((w) =>
    w === victim
      ? fx.cli(['export', ...shardArgs(w)], {
          configPath: w.config,
          env: { ...env, VENUE_ETL_TEST_PAUSE_AFTER_UPLOAD_MS: '4000' },
          killWhenStderr: /paused after an upload/,
          killAfterMatches: 2,
          timeoutMs: 120_000,
        })
      : fx.cli(['export', ...shardArgs(w)], { configPath: w.config, env, timeoutMs: 120_000 }),
  );
  const done = await Promise.all(runs);
  killed = done[2]!;
  const rerun = await fx.cli(['export', ...shardArgs(victim)], { configPath: victim.config, env, timeoutMs: 120_000 });
  exports = [...done.filter((run) => run !== killed), rerun];
  lakeDir = await download(target);
}, S3_SERVER_START_TIMEOUT_MS);

afterAll(async () => {
  await fx?.close();
});

async function download(lake: S3Target): Promise<string> {
  const into = join(fx.dir, 'lake');
  const store = new ObjectStore({
    target: lake,
    settings: { endpoint: server.endpoint, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  try {
    for (const object of await store.list()) {
      const path = join(into, ...object.key.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, (await store.get(object.key, 1 << 30))!);
    }
  } finally {
    store.close();
  }
  return into;
}

/** Columns compared per table, as text (the same in the warehouse and in the files with their hive columns). */
const COLUMNS: Record<string, string> = {
  series_points: 'venue_id, stream, metric, granularity, ts, value',
  summary_values: 'venue_id, stream, metric, period_start, period_end, value',
  project_roles: '*',
  venue_roles: '*',
  accounts: '*',
};

async function compare(table: string): Promise<{ lake: number; warehouses: number; onlyInLake: number; onlyInWarehouses: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const columns = COLUMNS[table]!;
  const asText =
    columns === '*'
      ? 'COLUMNS(*)::VARCHAR'
      : columns
          .split(', ')
          .map((c) => `${c}::VARCHAR AS ${c}`)
          .join(', ');
  try {
    for (const [i, w] of workers.entries()) await connection.run(`ATTACH '${w.warehouse}' AS w${i} (READ_ONLY)`);
    const union = `SELECT * FROM (${workers.map((_, i) => `SELECT ${asText} FROM w${i}.${table}`).join(' UNION ALL ')})`;
    const partitioned = columns !== '*';
    const glob = `SELECT ${asText} FROM read_parquet('${lakeDir}/${table}/**/*.parquet', hive_partitioning = ${partitioned})`;
    const one = async (statement: string): Promise<number> => Number((await connection.runAndReadAll(statement)).getRowObjectsJson()[0]!.n);
    return {
      lake: await one(`SELECT count(*) AS n FROM (${glob})`),
      warehouses: await one(`SELECT count(*) AS n FROM (${union})`),
      onlyInLake: await one(`SELECT count(*) AS n FROM (${glob} EXCEPT ALL ${union})`),
      onlyInWarehouses: await one(`SELECT count(*) AS n FROM (${union} EXCEPT ALL ${glob})`),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('two tenants and a 3-way shard exporting into one bucket', () => {
  it('every export succeeds (the killed one on its rerun), and no output holds the secret key', () => {
    expect(killed.signal).toBe('SIGKILL');
    for (const run of exports) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(server.secretAccessKey);
    }
  });

  it.each(Object.keys(COLUMNS))('one glob over %s reads exactly the union of the four warehouses', async (table) => {
    const compared = await compare(table);
    expect(compared.warehouses).toBeGreaterThan(0);
    expect(compared).toEqual({ lake: compared.warehouses, warehouses: compared.warehouses, onlyInLake: 0, onlyInWarehouses: 0 });
  });

  it("tenant B's roles and accounts come from shard 0's files only", async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const table of ['project_roles', 'venue_roles', 'accounts']) {
        const rows = (
          await connection.runAndReadAll(
            `SELECT regexp_extract(filename, '[^/]+$') AS file, count(*)::INTEGER AS n FROM read_parquet('${lakeDir}/${table}/*.parquet', filename = true) GROUP BY ALL`,
          )
        ).getRowObjectsJson();
        const files = new Map(rows.map((r) => [String(r.file), Number(r.n)]));
        expect(files.get('data-tenant-b-shard0of3.parquet'), table).toBeGreaterThan(0);
        expect(files.get('data-tenant-b-shard1of3.parquet') ?? 0, table).toBe(0);
        expect(files.get('data-tenant-b-shard2of3.parquet') ?? 0, table).toBe(0);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
