import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import { formatJson } from '../../src/readside/format-json.js';
import { loadNamedSql, runNamedSql, type QuerySource, type SqlParams } from '../../src/readside/index.js';
import { assertBuilt, CLI } from '../dist.js';
import { expandIncludes, sql } from '../../src/warehouse/sql-files.js';
import { rebuildPeakHoursRollup, writesSeries } from '../peak-hours-rollup.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export { CLI } from '../dist.js';

export const V1 = '11111111-1111-4111-8111-111111111111';
export const V2 = '22222222-2222-4222-8222-222222222222';
export const P1 = '99999999-9999-4999-8999-999999999999';
export const A1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1';
export const A2 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2';

/** Calendar days of the seeded series: the 60 days up to yesterday (UTC), so nothing is stale. */
export const DAYS = 60;

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-readside-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Today (UTC), read once per test process so that a file's seeded days and its expectations
 * agree on one day. The stale and freshness checks compare with DuckDB's now() when they run, so
 * a file that crosses midnight UTC can still see them disagree.
 */
const TODAY_MS = Math.floor(Date.now() / 86_400_000) * 86_400_000;

export function utcDay(offsetDays: number): string {
  return new Date(TODAY_MS + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Runs the report `name` on a source as `venue-etl report --format json` prints it, and closes the source. */
export async function report(opening: Promise<QuerySource>, name: string, params: SqlParams = {}): Promise<Record<string, unknown>[]> {
  const source = await opening;
  try {
    return JSON.parse(formatJson(await runNamedSql(source.connection, loadNamedSql('reports', name), params))) as Record<string, unknown>[];
  } finally {
    await source.close();
  }
}

/** Runs statements on the file with its own instance, closed afterwards (one writer at a time). */
export async function runOnFile(path: string, statements: string | readonly string[]): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    let rows: Record<string, unknown>[] = [];
    const list = typeof statements === 'string' ? [statements] : statements;
    for (const statement of list) {
      rows = (await connection.runAndReadAll(statement)).getRowObjectsJson() as Record<string, unknown>[];
    }
    if (writesSeries(list)) await rebuildPeakHoursRollup(connection);
    return rows;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Runs `work` with one connection on the file (many queries, one open). */
export async function withFile<T>(path: string, work: (query: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** An empty warehouse: every `sql/migrations/*.sql`, in order, recorded like the migration runner does. */
export async function createWarehouse(path: string): Promise<void> {
  const dir = join(repoRoot, 'sql', 'migrations');
  const files = readdirSync(dir)
    .filter((f) => /^\d{3,}_.+\.sql$/.test(f))
    .sort();
  await runOnFile(path, [
    ...files.map((f) => expandIncludes(readFileSync(join(dir, f), 'utf8'))),
    ...files.map((f) => `INSERT INTO schema_migrations (version, name) VALUES (${Number(f.slice(0, 3))}, '${f.slice(4, -4)}')`),
  ]);
}

/**
 * Seed data in every table. Venue V1 is loaded at day grain, V2 at hour grain; summaries are
 * computed from the series, so the consistency check passes; cursors are at yesterday.
 */
export const SEED_SQL: readonly string[] = [
  `CREATE TEMP TABLE seed_venues AS SELECT * FROM (VALUES ('${V1}'::UUID, 'day'), ('${V2}'::UUID, 'hour')) t(venue_id, grain)`,
  `CREATE TEMP TABLE seed_days AS SELECT (timezone('UTC', now())::DATE - 1 - i::INTEGER) AS day FROM range(${DAYS}) r(i)`,
  `CREATE TEMP TABLE seed_series AS SELECT * FROM (VALUES
     ('venue-devices-history', 'detected'), ('venue-devices-history', 'authenticated'),
     ('venue-devices-history', 'unique-detected'), ('venue-devices-history', 'unique-authenticated'),
     ('venue-users-history', 'logins'), ('venue-users-history', 'unique-logins'),
     ('venue-remarketing-history', 'embeds'),
     ('rating-history', 'rates-count'), ('rating-history', 'rates-average')) t(stream, metric)`,
  `INSERT INTO series_points
     SELECT v.venue_id, s.stream, s.metric, v.grain,
            timezone('UTC', d.day::TIMESTAMP + to_hours(h.h::INTEGER)),
            CASE WHEN s.metric = 'rates-average' THEN 1 + (hash(v.venue_id, d.day, h.h) % 400) / 100.0
                 ELSE (hash(v.venue_id, s.metric, d.day, h.h) % 50)::DOUBLE END,
            'run-1', now()
       FROM seed_venues v, seed_days d, seed_series s, range(24) h(h)
      WHERE v.grain = 'hour' OR h.h = 0`,
  `INSERT INTO summary_values
     SELECT venue_id, replace(stream, '-history', '-summary'), metric, day, day, sum(value), 'run-1', now()
       FROM (SELECT venue_id, stream, metric, timezone('UTC', ts)::DATE AS day, value FROM series_points
              WHERE stream IN ('venue-devices-history', 'venue-users-history') AND metric NOT LIKE 'unique-%')
      GROUP BY ALL`,
  `INSERT INTO summary_values
     SELECT v.venue_id, 'venue-users-login-methods', m.method, d.day, d.day, (hash(v.venue_id, m.method, d.day) % 20)::DOUBLE, 'run-1', now()
       FROM seed_venues v, seed_days d,
            (VALUES ('email'), ('phone'), ('autologin'), ('social-a'), ('social-b'), ('social-c'), ('social-d')) m(method)`,
  `INSERT INTO summary_values
     SELECT v.venue_id, 'rating-statistics-summaries', m.metric, d.day, d.day, (hash(v.venue_id, d.day) % 20 * m.part)::DOUBLE, 'run-1', now()
       FROM seed_venues v, seed_days d,
            (VALUES ('requests-sent', 4), ('requests-opened', 3), ('requests-rated', 2), ('requests-commented', 1)) m(metric, part)`,
  `CREATE TEMP TABLE seed_rates AS
     SELECT venue_id, timezone('UTC', ts)::DATE AS day, sum(value) AS n FROM series_points
      WHERE stream = 'rating-history' AND metric = 'rates-count' GROUP BY ALL`,
  `INSERT INTO summary_values
     SELECT venue_id, 'rating-summary', 'rates_count', day, day, n, 'run-1', now() FROM seed_rates
     UNION ALL SELECT venue_id, 'rating-summary', 'rates_per_value.1', day, day, floor(n * 0.1), 'run-1', now() FROM seed_rates
     UNION ALL SELECT venue_id, 'rating-summary', 'rates_per_value.2', day, day, floor(n * 0.1), 'run-1', now() FROM seed_rates
     UNION ALL SELECT venue_id, 'rating-summary', 'rates_per_value.3', day, day, floor(n * 0.2), 'run-1', now() FROM seed_rates
     UNION ALL SELECT venue_id, 'rating-summary', 'rates_per_value.4', day, day, floor(n * 0.3), 'run-1', now() FROM seed_rates
     UNION ALL SELECT venue_id, 'rating-summary', 'rates_per_value.5', day, day,
                      n - floor(n * 0.1) * 2 - floor(n * 0.2) - floor(n * 0.3), 'run-1', now() FROM seed_rates`,
  `INSERT INTO accounts VALUES
     ('${A1}', 'owner@example.com', 'Olga Owner', TIMESTAMPTZ '2025-01-01 10:00:00+00', 'en', ['ADMIN'], '[]', NULL, true, now(), now(), 'run-1'),
     ('${A2}', 'reader@example.com', 'Rafał "Reader", Jr.', NULL, 'pl', ['STANDARD'], '["vip"]', '${A1}', false, now(), now(), 'run-1')`,
  `INSERT INTO project_roles VALUES
     ('bbbbbbbb-0000-4000-8000-000000000002', '${P1}', '${A2}', 'reader', ['basic_data.read', 'venues.read'], TIMESTAMPTZ '2025-01-01 00:00:00+00', NULL, 'run-1')`,
  `INSERT INTO venue_roles VALUES
     ('bbbbbbbb-0000-4000-8000-000000000001', '${V1}', '${A1}', 'owner', NULL, ['venues.read', 'venues.update'], TIMESTAMPTZ '2025-01-01 00:00:00+00', NULL, 'run-1'),
     ('bbbbbbbb-0000-4000-8000-000000000002', '${V1}', '${A2}', 'reader', 'project-roles', ['basic_data.read', 'venues.read'], TIMESTAMPTZ '2025-01-01 00:00:00+00', NULL, 'run-1'),
     ('bbbbbbbb-0000-4000-8000-000000000002', '${V2}', '${A2}', 'reader', 'project-roles', ['basic_data.read', 'venues.read'], TIMESTAMPTZ '2025-01-01 00:00:00+00', NULL, 'run-1'),
     ('bbbbbbbb-0000-4000-8000-000000000003', '${V2}', '${A1}', 'owner', NULL, ['venues.destroy'], TIMESTAMPTZ '2025-01-01 00:00:00+00', TIMESTAMPTZ '2025-06-01 00:00:00+00', 'run-1')`,
  `INSERT INTO venues VALUES ('${V1}', 'Café Central', 'Main St 1', 'Kraków', 'PL', TIMESTAMPTZ '2024-05-01 08:00:00+00', now())`,
  `INSERT INTO users VALUES ('cccccccc-0000-4000-8000-000000000001', 'guest@example.com', true, 'Gu', 'Est', '+48100200300', false, 'pl', DATE '1990-02-03', 'f', true, now())`,
  `INSERT INTO upsert_events VALUES ('${'e'.repeat(64)}', now(), 'cccccccc-0000-4000-8000-000000000001', '${V1}', '{"data":{"user":{"id":"cccccccc-0000-4000-8000-000000000001"}}}')`,
  `INSERT INTO user_venue_history VALUES ('cccccccc-0000-4000-8000-000000000001', '${V1}', 3, TIMESTAMPTZ '2025-01-01 10:00:00+00', TIMESTAMPTZ '2025-02-01 10:00:00+00', now())`,
  `INSERT INTO user_venue_agreements VALUES ('cccccccc-0000-4000-8000-000000000001', '${V1}', TIMESTAMPTZ '2025-01-01 10:00:00+00', ['terms', 'marketing'], '${'e'.repeat(64)}')`,
  `INSERT INTO sync_cursors
     SELECT s.stream, v.venue_id::VARCHAR, timezone('UTC', now())::DATE - 1, now(), '20260102T021500000Z-bbbbbb'
       FROM (SELECT DISTINCT stream FROM series_points UNION SELECT DISTINCT stream FROM summary_values UNION SELECT 'venue-roles') s, seed_venues v`,
  `INSERT INTO sync_cursors VALUES ('accounts', 'accounts', timezone('UTC', now())::DATE - 1, now(), '20260102T021500000Z-bbbbbb')`,
  `INSERT INTO sync_runs VALUES
     ('20260101T021500000Z-aaaaaa', 'nightly-sync', now() - INTERVAL 1 DAY, now() - INTERVAL 1 DAY + INTERVAL 90 SECOND, 'succeeded', 120, 2, 5000, 0, '{"pid": 1}'),
     ('20260102T021500000Z-bbbbbb', 'nightly-sync', now() - INTERVAL 1 HOUR, now() - INTERVAL 59 MINUTE, 'partial', 80, 5, 1200, 1, '{"pid": 2}')`,
  `INSERT INTO sync_errors VALUES
     ('20260102T021500000Z-bbbbbb', 'rating-history', '${V2}', timezone('UTC', now())::DATE - 3, timezone('UTC', now())::DATE - 1,
      'VENUE_API_HTTP_500', 'the API answered 500 three times', now())`,
];

/**
 * The daily rollup summed again from every series point (sql/rollups/series-daily-rebuild.sql):
 * what a load keeps exact by itself, for a test that writes series_points by hand.
 */
export const REBUILD_ROLLUP = (): string => sql('rollups/series-daily-rebuild.sql');

export async function seededWarehouse(path: string): Promise<void> {
  await createWarehouse(path);
  await runOnFile(path, [...SEED_SQL, REBUILD_ROLLUP()]);
}

/** A config file for the read side: only the warehouse and Parquet paths matter. */
export function writeConfig(dir: string, extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'venue-etl.config.json');
  writeFileSync(
    path,
    JSON.stringify({
      api: { baseUrl: 'http://127.0.0.1:9', token: 'not-used-by-the-read-side' },
      scope: { venues: [V1, V2] },
      warehouse: { path: join(dir, 'warehouse.duckdb') },
      parquet: { dir: join(dir, 'parquet') },
      ...extra,
    }),
  );
  return path;
}

/**
 * For a describe block that runs the CLI on the seeded data: a temp folder with the config
 * (written now) and the seeded warehouse (before the block's tests), removed afterwards.
 */
export function useSeededCli(): { readonly dir: string; readonly warehouse: string; readonly config: string } {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const config = writeConfig(dir);
  beforeAll(() => seededWarehouse(warehouse));
  afterAll(cleanup);
  return { dir, warehouse, config };
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI as a child process, as a user runs it (dist/ is built before any test file starts). */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  assertBuilt();
  return spawnOnce(args, options);
}

function spawnOnce(args: readonly string[], options: { cwd?: string; env?: Record<string, string> }): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/** Starts the CLI and returns the child, for tests that kill it part-way. */
export function spawnCli(args: readonly string[], cwd = repoRoot): ChildProcess {
  assertBuilt();
  return spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
}
