/**
 * `venue-etl export` into an s3:// lake on a real S3-compatible server (Swift with s3api on
 * loopback, test/s3-server.ts), by the built CLI: the hive layout and manifest, incremental
 * uploads, deletions, an export killed with SIGKILL and run again, two writers in one prefix,
 * the writer conflict, and no credential in any output.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { MIN_PART_BYTES, ObjectStore, parseS3Target, type S3Target } from '../../src/lake/index.js';
import { openWarehouse, type SliceCommit } from '../../src/warehouse/index.js';
import { childEnv, runCli, type CliResult } from '../e2e/harness.js';
import { S3_SERVER_START_TIMEOUT_MS, s3Server, type S3Server } from '../s3-server.js';
import { runOnFile } from '../readside/fixture.js';
import { seriesSlice, tempDir, VENUE_A, VENUE_B, warehouseWithSlices } from '../warehouse/helpers.js';

const USERS = 'venue-users-history';
const DEVICES = 'venue-devices-history';

// The SDK's warning that releases after January 2027 need Node 22 (the pinned one supports 20).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

let server: S3Server;
let temp: { dir: string; cleanup: () => void };
const stores: ObjectStore[] = [];

beforeAll(async () => {
  server = await s3Server();
}, S3_SERVER_START_TIMEOUT_MS);

beforeEach(() => {
  temp = tempDir();
  return () => temp.cleanup();
});

afterAll(() => {
  for (const store of stores) store.close();
});

/** Day rows of one stream and venue from `from` for `count` days, value = base + day index. */
function days(venue: string, stream: string, from: string, count: number, base: number): SliceCommit {
  const start = Date.parse(`${from}T00:00:00Z`);
  const rows: [string, 'day', string, number][] = [];
  for (let i = 0; i < count; i++) rows.push(['users', 'day', new Date(start + i * 86_400_000).toISOString(), base + i]);
  const to = new Date(start + (count - 1) * 86_400_000).toISOString().slice(0, 10);
  return seriesSlice(venue, stream, from, to, rows);
}

const warehouseWith = (name: string, slices: readonly SliceCommit[]): Promise<string> => warehouseWithSlices(temp.dir, name, slices);

function freshLake(): { url: string; target: S3Target } {
  const url = `s3://${server.bucket}/tests/${randomUUID()}`;
  const parsed = parseS3Target(url);
  if (!('target' in parsed)) throw new Error(parsed.problem);
  return { url, target: parsed.target };
}

/** A config whose parquet.dir is the lake; the keys come from the environment only. */
function writeConfig(name: string, warehouse: string, lake: string, writer?: string): string {
  const path = join(temp.dir, `${name}.config.json`);
  const parquet = { dir: lake, ...(writer ? { writer } : {}), s3: { endpoint: server.endpoint, forcePathStyle: true } };
  // Debug logging: every line the export can log is searched for the secret.
  writeFileSync(path, JSON.stringify({ warehouse: { path: warehouse }, parquet, log: { level: 'debug' } }));
  return path;
}

const s3Env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  childEnv({ AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey, ...extra });

function exportCli(config: string, args: readonly string[] = [], options: Parameters<typeof runCli>[1] = {}): Promise<CliResult> {
  return runCli(['export', '--config', config, ...args], { cwd: temp.dir, env: s3Env(), timeoutMs: 120_000, ...options });
}

function expectOk(run: CliResult): void {
  expect(run.code, run.stderr).toBe(0);
  // The secret key never reaches any output.
  expect(run.stdout + run.stderr).not.toContain(server.secretAccessKey);
}

function storeOf(target: S3Target): ObjectStore {
  const store = new ObjectStore({
    target,
    settings: { endpoint: server.endpoint, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  stores.push(store);
  return store;
}

/** Every object of the lake: key → ETag and LastModified (the SDK directly, for LastModified). */
async function objects(target: S3Target): Promise<Map<string, string>> {
  const client = new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    const found = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: `${target.prefix}/`, ContinuationToken: token }));
      for (const item of page.Contents ?? []) found.set(item.Key!.slice(target.prefix.length + 1), `${item.ETag}@${item.LastModified?.toISOString()}`);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  } finally {
    client.destroy();
  }
}

/** The lake downloaded into a local folder (DuckDB's httpfs cannot be loaded offline). */
async function download(target: S3Target): Promise<string> {
  const into = join(temp.dir, `download-${randomUUID()}`);
  const store = storeOf(target);
  for (const object of await store.list()) {
    const path = join(into, ...object.key.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, (await store.get(object.key, 1 << 30))!);
  }
  return into;
}

const SERIES = `venue_id::VARCHAR AS venue_id, stream, metric, granularity::VARCHAR AS granularity, ts, value`;

/**
 * Rows of the glob over every writer's series files that are not in the union of the
 * warehouses, and the other way round (with multiplicity: a duplicate counts), plus the counts.
 */
async function compareUnion(
  lake: string,
  warehouses: readonly string[],
): Promise<{ lakeRows: number; warehouseRows: number; onlyInLake: number; onlyInWarehouses: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const attached = warehouses.map((_path, i) => `w${i}`);
    for (const [i, path] of warehouses.entries()) await connection.run(`ATTACH '${path}' AS w${i} (READ_ONLY)`);
    const union = `SELECT * FROM (${attached.map((alias) => `SELECT ${SERIES} FROM ${alias}.series_points`).join(' UNION ALL ')})`;
    const glob = `SELECT ${SERIES} FROM read_parquet('${lake}/series_points/**/*.parquet', hive_partitioning = true)`;
    const one = async (statement: string): Promise<number> => Number((await connection.runAndReadAll(statement)).getRowObjectsJson()[0]!.n);
    return {
      lakeRows: await one(`SELECT count(*) AS n FROM (${glob})`),
      warehouseRows: await one(`SELECT count(*) AS n FROM (${union})`),
      onlyInLake: await one(`SELECT count(*) AS n FROM (${glob} EXCEPT ALL ${union})`),
      onlyInWarehouses: await one(`SELECT count(*) AS n FROM (${union} EXCEPT ALL ${glob})`),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const JAN_TO_MAR: readonly SliceCommit[] = [days(VENUE_A, USERS, '2026-01-01', 90, 0), days(VENUE_A, DEVICES, '2026-01-01', 90, 2000)];

describe('export into an s3:// lake', () => {
  it('writes the hive layout and the manifest beside it; then uploads only what changed and deletes emptied partitions', async () => {
    const warehouse = await warehouseWith('w', JAN_TO_MAR);
    const lake = freshLake();
    const config = writeConfig('w', warehouse, lake.url);
    expectOk(await exportCli(config));

    const first = await objects(lake.target);
    const series = [...first.keys()].filter((k) => k.startsWith('series_points/')).sort();
    expect(series).toEqual([USERS, DEVICES].flatMap((s) => ['01', '02', '03'].map((m) => `series_points/stream=${s}/month=2026-${m}/data.parquet`)).sort());
    expect(first.has('venues/data.parquet')).toBe(true);
    expect(first.has('_venue_etl_manifest.json')).toBe(true);
    const manifest = JSON.parse((await storeOf(lake.target).get('_venue_etl_manifest.json'))!.toString('utf8')) as {
      writerId: string;
      tables: Record<string, { partitions: Record<string, { version: string }> }>;
    };
    expect(manifest.writerId).toBe('');
    expect(Object.keys(manifest.tables.series_points!.partitions).length).toBe(6);
    expect(JSON.stringify(manifest)).not.toContain(server.secretAccessKey);
    expect((await compareUnion(await download(lake.target), [warehouse])).onlyInLake).toBe(0);

    // One day of one stream: one series object is uploaded again, the other five stay as they were.
    const opened = await openWarehouse(warehouse);
    await opened.commitSlices('run-2', [days(VENUE_A, USERS, '2026-02-10', 1, 500)]);
    await opened.reset({ streams: [DEVICES], from: '2026-03-01', rows: true }, 'run-reset');
    await opened.close();
    // LastModified has one-second steps: a re-upload of an untouched object must show.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await exportCli(config);
    expectOk(second);
    // The debug log was searched for the secret too.
    expect(second.stderr).toMatch(/partition written/);
    const after = await objects(lake.target);
    const changed = `series_points/stream=${USERS}/month=2026-02/data.parquet`;
    const emptied = `series_points/stream=${DEVICES}/month=2026-03/data.parquet`;
    expect(after.get(changed)).not.toBe(first.get(changed));
    expect(after.has(emptied)).toBe(false);
    for (const key of series.filter((k) => k !== changed && k !== emptied)) expect(after.get(key), key).toBe(first.get(key));
    const compared = await compareUnion(await download(lake.target), [warehouse]);
    expect(compared).toMatchObject({ onlyInLake: 0, onlyInWarehouses: 0 });
  });

  it('an export killed (SIGKILL) between uploads is finished by the next run: the lake equals a clean export, without duplicates', async () => {
    const warehouse = await warehouseWith('w', [...JAN_TO_MAR, days(VENUE_B, USERS, '2026-01-01', 90, 1000)]);
    const lake = freshLake();
    const config = writeConfig('w', warehouse, lake.url);
    expectOk(await exportCli(config));
    // Late data in every month of both streams: six partitions to upload again.
    const opened = await openWarehouse(warehouse);
    await opened.commitSlices('run-2', [days(VENUE_A, USERS, '2026-01-15', 60, 7000), days(VENUE_A, DEVICES, '2026-01-15', 60, 9000)]);
    await opened.close();

    const killed = await exportCli(config, [], {
      env: s3Env({ VENUE_ETL_TEST_PAUSE_AFTER_UPLOAD_MS: '5000' }),
      killWhenStderr: /paused after an upload/,
      killAfterMatches: 2,
    });
    expect(killed.killed).toBe(true);
    expect(killed.signal).toBe('SIGKILL');
    // The lease the killed export held is still there; the rerun on this machine takes it over.
    expect((await objects(lake.target)).has('_venue_etl_lock.json')).toBe(true);

    expectOk(await exportCli(config));
    const rerun = await objects(lake.target);
    expect(rerun.has('_venue_etl_lock.json')).toBe(false);
    const compared = await compareUnion(await download(lake.target), [warehouse]);
    expect(compared).toEqual({ lakeRows: compared.warehouseRows, warehouseRows: compared.warehouseRows, onlyInLake: 0, onlyInWarehouses: 0 });

    const clean = freshLake();
    expectOk(await exportCli(writeConfig('clean', warehouse, clean.url)));
    const dataKeys = (m: Map<string, string>) => [...m.keys()].filter((k) => k.endsWith('.parquet')).sort();
    expect(dataKeys(rerun)).toEqual(dataKeys(await objects(clean.target)));
  });

  it('two writers into one prefix: neither touches the other, one glob reads the union; a writer id taken by another warehouse is refused', async () => {
    const a = await warehouseWith('a', JAN_TO_MAR);
    const b = await warehouseWith('b', [days(VENUE_B, USERS, '2026-02-01', 59, 1000)]);
    const lake = freshLake();
    const configA = writeConfig('a', a, lake.url, 'tenant-a');
    const configB = writeConfig('b', b, lake.url, 'tenant-b');
    expectOk(await exportCli(configA));
    const onlyA = await objects(lake.target);
    expectOk(await exportCli(configB));
    const both = await objects(lake.target);
    // B added its files beside A's and changed none of them.
    for (const [key, state] of onlyA) if (key !== '_venue_etl_lock-tenant-a.json') expect(both.get(key), key).toBe(state);
    expect(both.has(`series_points/stream=${USERS}/month=2026-02/data-tenant-a.parquet`)).toBe(true);
    expect(both.has(`series_points/stream=${USERS}/month=2026-02/data-tenant-b.parquet`)).toBe(true);
    expect(both.has('_venue_etl_manifest-tenant-a.json') && both.has('_venue_etl_manifest-tenant-b.json')).toBe(true);
    expect([...both.keys()].some((k) => k.endsWith('/data.parquet'))).toBe(false);

    // A's rows of February are gone: A deletes its own file, B's file of that partition stays.
    const opened = await openWarehouse(a);
    await opened.reset({ streams: [USERS], from: '2026-02-01', rows: true }, 'run-reset');
    await opened.close();
    expectOk(await exportCli(configA));
    const after = await objects(lake.target);
    expect(after.has(`series_points/stream=${USERS}/month=2026-02/data-tenant-a.parquet`)).toBe(false);
    for (const [key, state] of both) if (key.includes('tenant-b')) expect(after.get(key), key).toBe(state);
    expect(await compareUnion(await download(lake.target), [a, b])).toMatchObject({ onlyInLake: 0, onlyInWarehouses: 0 });

    // A third warehouse that claims tenant-a: refused (exit 2) with the fix, and nothing written.
    const c = await warehouseWith('c', [days(VENUE_B, DEVICES, '2026-01-01', 10, 5)]);
    const refused = await exportCli(writeConfig('c', c, lake.url, 'tenant-a'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/VENUE_EXPORT_WRITER_TAKEN: /);
    expect(refused.stderr).toMatch(/parquet\.writer/);
    expect(refused.stderr).toMatch(/--take-over/);
    expect(refused.stdout + refused.stderr).not.toContain(server.secretAccessKey);
    expect(await objects(lake.target)).toEqual(after);
  });

  it('shards export as writers of their own: export --shard I/N and VENUE_ETL_SHARD name the files', async () => {
    const w = await warehouseWith('s', [days(VENUE_A, USERS, '2026-01-01', 5, 0)]);
    const lake = freshLake();
    const config = writeConfig('s', w, lake.url, 'tenant-a');
    expectOk(await exportCli(config, ['--shard', '1/3']));
    const keys = [...(await objects(lake.target)).keys()];
    expect(keys).toContain(`series_points/stream=${USERS}/month=2026-01/data-tenant-a-shard1of3.parquet`);
    expect(keys).toContain('_venue_etl_manifest-tenant-a-shard1of3.json');
    const other = await warehouseWith('s2', [days(VENUE_B, USERS, '2026-01-01', 5, 0)]);
    expectOk(await exportCli(writeConfig('s2', other, lake.url), [], { env: s3Env({ VENUE_ETL_SHARD: '2/3' }) }));
    expect([...(await objects(lake.target)).keys()]).toContain(`series_points/stream=${USERS}/month=2026-01/data-shard2of3.parquet`);
  });
});

describe('the lease of an s3:// export (an object store has no locks)', () => {
  const settings = (): { endpoint: string; forcePathStyle: boolean; accessKeyId: string; secretAccessKey: string } => ({
    endpoint: server.endpoint,
    forcePathStyle: true,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
  });

  async function withLease(lease: Record<string, unknown>): Promise<{ lake: { url: string; target: S3Target }; warehouse: string }> {
    const warehouse = await warehouseWith('w', [days(VENUE_A, USERS, '2026-01-01', 5, 0)]);
    const lake = freshLake();
    const path = join(temp.dir, 'lease.json');
    writeFileSync(path, JSON.stringify({ token: 'held', leaseSeconds: 60, ...lease }));
    await storeOf(lake.target).putFile(path, '_venue_etl_lock-tenant-a.json');
    return { lake, warehouse };
  }

  it('refuses while another export holds a live lease: renewed lately, on another machine or by a running pid on this one', async () => {
    for (const lease of [
      { host: 'worker-7', pid: 1, renewedAt: new Date().toISOString() },
      { host: hostname(), pid: process.ppid, renewedAt: new Date().toISOString() },
    ]) {
      const { lake, warehouse } = await withLease(lease);
      await expect(exportParquet({ warehouse, dir: lake.url, s3: settings(), writer: 'tenant-a' })).rejects.toMatchObject({
        code: 'VENUE_EXPORT_BUSY',
        message: expect.stringContaining(String(lease.pid)),
      });
      expect([...(await objects(lake.target)).keys()]).toEqual(['_venue_etl_lock-tenant-a.json']);
    }
  });

  it('takes over a lease whose time ran out, or whose pid no longer runs on this machine, and removes it when done', async () => {
    for (const lease of [
      { host: 'worker-7', pid: 1, renewedAt: new Date(Date.now() - 120_000).toISOString() },
      { host: hostname(), pid: 2 ** 22 + 1, renewedAt: new Date().toISOString() },
    ]) {
      const { lake, warehouse } = await withLease(lease);
      const report = await exportParquet({ warehouse, dir: lake.url, s3: settings(), writer: 'tenant-a' });
      expect(report.manifest).toBe(`${lake.url}/_venue_etl_manifest-tenant-a.json`);
      const keys = [...(await objects(lake.target)).keys()];
      expect(keys).toContain(`series_points/stream=${USERS}/month=2026-01/data-tenant-a.parquet`);
      expect(keys).not.toContain('_venue_etl_lock-tenant-a.json');
    }
  });
});

describe('a file above the multipart threshold', () => {
  it('goes up in parts, and its ETag as listed matches the one in the manifest: the next export uploads nothing', async () => {
    const warehouse = await warehouseWith('w', [days(VENUE_A, USERS, '2026-01-01', 3, 0)]);
    // ~1M rows of random values in one partition: a Parquet file of several MiB.
    await runOnFile(
      warehouse,
      `INSERT INTO series_points SELECT '${VENUE_B}', '${DEVICES}', 'm' || (i % 40000), 'day', TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_days((i // 40000)::INTEGER), random(), 'run-x', now() FROM range(1000000) t(i)`,
    );
    const lake = freshLake();
    const s3 = {
      endpoint: server.endpoint,
      forcePathStyle: true,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      multipartThresholdBytes: MIN_PART_BYTES,
      partSizeBytes: MIN_PART_BYTES,
    };
    const first = await exportParquet({ warehouse, dir: lake.url, s3 });
    const key = `series_points/stream=${DEVICES}/month=2026-01/data.parquet`;
    const listed = (await storeOf(lake.target).list('series_points/')).find((o) => o.key === key)!;
    expect(listed.size).toBeGreaterThan(MIN_PART_BYTES);
    // A multipart ETag is `<md5 of the parts' md5s>-<parts>`.
    expect(listed.etag).toMatch(/-\d+$/);
    expect(first.tables.find((t) => t.table === 'series_points')!.written).toBe(2);
    const second = await exportParquet({ warehouse, dir: lake.url, s3 });
    expect(second.tables.find((t) => t.table === 'series_points')).toMatchObject({ written: 0, unchanged: 2 });
  });
});
