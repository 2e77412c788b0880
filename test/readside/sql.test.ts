import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatJson } from '../../src/readside/format-json.js';
import { openParquetSource, openWarehouseSource, runReadOnly, type QuerySource } from '../../src/readside/index.js';
import { repoRoot, runCli, runOnFile, tempDir, useSeededCli, writeConfig } from './fixture.js';

async function withSource(opening: Promise<QuerySource>, query: string): Promise<string> {
  const source = await opening;
  try {
    return formatJson(await runReadOnly(source.connection, query));
  } finally {
    await source.close();
  }
}

describe('venue-etl sql', () => {
  const { dir, warehouse, config } = useSeededCli();
  const sql = (query: string, ...options: string[]) => runCli(['sql', query, '--config', config, ...options]);

  it('prints an aligned table by default', async () => {
    const run = await sql(`SELECT stream, count(*) AS n FROM series_points GROUP BY stream ORDER BY stream`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        'stream                        n',
        '-------------------------  ----',
        'rating-history             3000',
        'venue-devices-history      6000',
        'venue-remarketing-history  1500',
        'venue-users-history        3000',
        '(4 rows)',
        '',
      ].join('\n'),
    );
  });

  it('prints RFC 4180 CSV: quotes doubled, fields with commas quoted, CRLF, empty for NULL', async () => {
    const run = await sql(`SELECT email, full_name, confirmed_at, roles_names FROM accounts ORDER BY email`, '--format', 'csv');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'email,full_name,confirmed_at,roles_names\r\n' +
        'owner@example.com,Olga Owner,2025-01-01T10:00:00Z,"[""ADMIN""]"\r\n' +
        'reader@example.com,"Rafał ""Reader"", Jr.",,"[""STANDARD""]"\r\n',
    );
  });

  it('prints JSON: big integers as strings, dates and timestamps ISO, JSON columns as JSON', async () => {
    const run = await sql(
      `SELECT 42::BIGINT AS small, 9007199254740993::BIGINT AS big, 170141183460469231731687303715884105727::HUGEINT AS huge,
              1.5::DOUBLE AS d, DATE '2026-01-02' AS day, TIMESTAMPTZ '2026-01-02 03:04:05.123456+00' AS at,
              TIMESTAMP '2026-01-02 03:04:05' AS local_at, [1, 2] AS list, {'a': 1} AS struct, '{"x":[1]}'::JSON AS j,
              NULL AS nothing, '${'1'.repeat(8)}-1111-4111-8111-111111111111'::UUID AS id`,
      '--format',
      'json',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        small: 42,
        big: '9007199254740993',
        huge: '170141183460469231731687303715884105727',
        d: 1.5,
        day: '2026-01-02',
        at: '2026-01-02T03:04:05.123456Z',
        local_at: '2026-01-02T03:04:05',
        list: [1, 2],
        struct: { a: 1 },
        j: { x: [1] },
        nothing: null,
        id: '11111111-1111-4111-8111-111111111111',
      },
    ]);
    const tags = await sql(`SELECT tags FROM accounts ORDER BY email`, '--format', 'json');
    expect(JSON.parse(tags.stdout)).toEqual([{ tags: [] }, { tags: ['vip'] }]);
  });

  it('runs several statements and prints the last result (variables work)', async () => {
    const run = await sql(`SET VARIABLE d = DATE '2026-02-03'; SELECT getvariable('d') + 1 AS next_day`, '--format', 'csv');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('next_day\r\n2026-02-04\r\n');
  });

  it('a failing query exits 1 with DuckDB message and no stack trace', async () => {
    const run = await sql(`SELECT nope FROM missing_table`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('VENUE_SQL_FAILED: Catalog Error: Table with name missing_table does not exist!');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses statements that write, and the warehouse is unchanged', async () => {
    const run = await sql(`DELETE FROM accounts`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('VENUE_SQL_READ_ONLY: venue-etl sql is read-only: DELETE statements are refused');
    const source = await openWarehouseSource(warehouse);
    try {
      for (const statement of [
        `INSERT INTO sync_cursors VALUES ('x', 'y', DATE '2026-01-01', now(), 'r')`,
        `UPDATE accounts SET language = 'xx'`,
        `CREATE TABLE scratch AS SELECT 1 AS a`,
        `COPY accounts TO '${join(dir, 'leak.csv')}'`,
        `ATTACH '${join(dir, 'other.duckdb')}' AS other`,
        `SELECT 1 AS ok; DROP TABLE accounts`,
        `EXPORT DATABASE '${join(dir, 'dump')}'`,
        `COMMIT; DELETE FROM accounts`,
        `ROLLBACK; BEGIN; DELETE FROM accounts; COMMIT`,
        `SET enable_external_access = true`,
      ]) {
        await expect(runReadOnly(source.connection, statement), statement).rejects.toMatchObject({ code: 'VENUE_SQL_READ_ONLY' });
      }
    } finally {
      await source.close();
    }
    const [{ n }] = await runOnFile(warehouse, `SELECT count(*)::INTEGER AS n FROM accounts WHERE language <> 'xx'`);
    expect(n).toBe(2);
  });

  it('reads with statements DuckDB plans as several (PIVOT without an IN list), temp tables stay private', async () => {
    const run = await sql(`PIVOT (SELECT stream, value FROM series_points) ON stream USING count(value) ORDER BY ALL`, '--format', 'csv');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('rating-history,venue-devices-history,venue-remarketing-history,venue-users-history\r\n3000,6000,1500,3000\r\n');
    const scratch = await sql(`CREATE TEMP TABLE t AS SELECT 41 AS a; SELECT a + 1 AS b FROM t`, '--format', 'csv');
    expect(scratch.code, scratch.stderr).toBe(0);
    expect(scratch.stdout).toBe('b\r\n42\r\n');
  });

  it('refuses COPY TO a file with the reason DuckDB gives, and writes no file', async () => {
    const target = join(dir, 'copied.csv');
    const run = await sql(`COPY (SELECT 1 AS a) TO '${target}'`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`VENUE_SQL_READ_ONLY: venue-etl sql opens no file but its source: DuckDB refused to open ${target}`);
    expect(existsSync(target)).toBe(false);
  });

  it('needs a query (exit 2) and a known format (exit 2)', async () => {
    expect((await runCli(['sql', '--config', config])).code).toBe(2);
    const bad = await sql('SELECT 1 AS a', '--format', 'xml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of table, csv, json');
  });

  it('--parquet runs the same query on the exported files through views named like the tables', async () => {
    const missing = await sql('SELECT 1 AS a', '--parquet');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('VENUE_PARQUET_MISSING');
    expect(missing.stderr).toContain('venue-etl export');

    expect((await runCli(['export', '--config', config, '--log-level', 'warn'])).code).toBe(0);
    const queries = [
      `SELECT stream, metric, count(*) AS n, round(sum(value), 6) AS total, min(ts) AS first, max(loaded_at) AS loaded FROM series_points GROUP BY ALL ORDER BY ALL`,
      `SELECT * FROM summary_values ORDER BY ALL LIMIT 50`,
      `SELECT * FROM current_venue_roles ORDER BY venue_id, role_id`,
      `SELECT * FROM accounts ORDER BY account_id`,
      `SELECT * FROM sync_runs ORDER BY run_id`,
    ];
    // The same queries through both sources, in-process (the CLI path is covered below).
    const config_ = { warehouse: join(dir, 'warehouse.duckdb'), parquet: join(dir, 'parquet') };
    for (const query of queries) {
      const onWarehouse = await withSource(openWarehouseSource(config_.warehouse), query);
      const onParquet = await withSource(openParquetSource(config_.parquet), query);
      expect(onParquet, query).toBe(onWarehouse);
    }
    const cli = await sql(queries[0], '--format', 'json', '--parquet');
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(await withSource(openWarehouseSource(config_.warehouse), queries[0]));
    const columns = await sql(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'series_points' ORDER BY ordinal_position`,
      '--format',
      'csv',
      '--parquet',
    );
    expect(columns.stdout).toContain('venue_id,UUID\r\nstream,VARCHAR\r\nmetric,VARCHAR');
    expect(columns.stdout).not.toContain('month');

    // The Parquet source reads its folder only, and is as read-only as the warehouse.
    const outside = join(dir, 'from-parquet.csv');
    for (const statement of [`COPY (SELECT 1 AS a) TO '${outside}'`, `CREATE TABLE scratch AS SELECT 1 AS a`, `ATTACH '${join(dir, 'p.duckdb')}' AS p`]) {
      const refused = await sql(statement, '--parquet');
      expect(refused.code, statement).toBe(1);
      expect(refused.stderr, statement).toContain('VENUE_SQL_READ_ONLY');
    }
    expect(existsSync(outside)).toBe(false);
    const pivot = await sql(`PIVOT (SELECT stream FROM series_points) ON stream USING count(*)`, '--parquet', '--format', 'csv');
    expect(pivot.code, pivot.stderr).toBe(0);
    expect(pivot.stdout).toBe('rating-history,venue-devices-history,venue-remarketing-history,venue-users-history\r\n3000,6000,1500,3000\r\n');
  });

  describe('while another process writes the warehouse', () => {
    let holder: ChildProcess;

    beforeAll(async () => {
      // A writer holding the file, as `venue-etl sync` or `serve` would.
      holder = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { DuckDBInstance } from '@duckdb/node-api';
           const db = await DuckDBInstance.create(${JSON.stringify(warehouse)});
           const connection = await db.connect();
           console.log('holding');
           setInterval(() => [db, connection], 1000); // keeps the lock holder reachable`,
        ],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => holder.stdout?.once('data', () => resolve()));
    });
    afterAll(() => {
      holder.kill('SIGKILL');
    });

    it('says so and suggests --parquet (exit 1); --parquet works meanwhile', async () => {
      const run = await sql('SELECT count(*) AS n FROM accounts');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('VENUE_WAREHOUSE_LOCKED');
      // The holder here is a plain `node -e` script; a venue-etl command is named by its command.
      expect(run.stderr).toMatch(/in use by `node` \(PID \d+\)/);
      expect(run.stderr).toContain('venue-etl sql --parquet');
      const parquet = await sql('SELECT count(*) AS n FROM accounts', '--parquet', '--format', 'csv');
      expect(parquet.code, parquet.stderr).toBe(0);
      expect(parquet.stdout).toBe('n\r\n2\r\n');
    });
  });
});

describe('venue-etl sql without a warehouse', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('says to run sync first', async () => {
    const run = await runCli(['sql', 'SELECT 1 AS a', '--config', writeConfig(dir)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('VENUE_WAREHOUSE_MISSING');
    expect(run.stderr).toContain('run `venue-etl sync`');
  });
});
