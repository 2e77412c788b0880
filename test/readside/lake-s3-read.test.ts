import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpfsUnavailable } from '../../src/readside/errors.js';
import { lockDown } from '../../src/readside/lock-down.js';
import { runCli, tempDir, V1 } from './fixture.js';

const SECRET = 'lake-secret-key-that-must-never-be-printed';

/** Whether DuckDB's httpfs extension can be loaded on this machine (it cannot offline: it is not bundled). */
async function httpfsLoads(): Promise<boolean> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run('SET autoinstall_known_extensions = false');
    await connection.run('LOAD httpfs');
    return true;
  } catch {
    return false;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('--parquet on an s3:// lake where httpfs cannot be loaded', () => {
  const { dir, cleanup } = tempDir();
  const config = join(dir, 'venue-etl.config.json');

  beforeAll(async () => {
    // This file checks the refusal; on a machine with httpfs installed the read itself runs
    // (against an object store), which this file cannot check: say so instead of passing.
    if (await httpfsLoads()) throw new Error('httpfs loads on this machine: this file checks the machine without it');
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: 'http://127.0.0.1:9', token: 'not-used-by-the-read-side' },
        scope: { venues: [V1] },
        warehouse: { path: join(dir, 'warehouse.duckdb') },
        // Port 9 (discard): nothing answers there, and nothing must be asked before httpfs loads.
        parquet: {
          dir: 's3://venue-lake/prod',
          s3: { endpoint: 'http://127.0.0.1:9', forcePathStyle: true, accessKeyId: '${LAKE_KEY_ID}', secretAccessKey: '${LAKE_SECRET}' },
        },
      }),
    );
  });
  afterAll(cleanup);

  it.each([
    ['sql', ['sql', '--parquet', 'SELECT count(*) FROM series_points']],
    ['report', ['report', 'daily-devices', '--parquet']],
    ['dashboard', ['dashboard', '--parquet', '--out', 'dashboard.html']],
  ])('%s says so with the fix (exit 2), and prints no secret', async (_name, args) => {
    const run = await runCli([...args, '--config', config], { cwd: dir, env: { LAKE_KEY_ID: 'AKIAEXAMPLELAKE', LAKE_SECRET: SECRET } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('VENUE_LAKE_HTTPFS_UNAVAILABLE');
    expect(run.stderr).toContain('s3://venue-lake/prod');
    // The fix: install once (the DuckDB version and platform named), or query a local copy.
    expect(run.stderr).toMatch(/INSTALL httpfs` in DuckDB v\d+\.\d+\.\d+/);
    expect(run.stderr).toMatch(/~\/\.duckdb\/extensions\/v\d+\.\d+\.\d+\/[a-z0-9_]+\//);
    // The copy goes to the configured object store, not to AWS.
    expect(run.stderr).toContain('aws s3 sync s3://venue-lake/prod DIR --endpoint-url http://127.0.0.1:9`');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
  });
});

describe('the local copy the httpfs hint suggests', () => {
  it('names no endpoint for a lake on AWS itself', () => {
    const hint = httpfsUnavailable('s3://venue-lake/prod', 'v1.0.0', 'linux_amd64', new Error('not found')).hint;
    expect(hint).toContain('`aws s3 sync s3://venue-lake/prod DIR`');
  });
});

describe('the seal of an s3:// lake session', () => {
  it('lets the lake’s data objects through DuckDB’s permission check and refuses every other path, for good', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const attempt = async (sql: string): Promise<string> =>
      connection.run(sql).then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message.split('\n')[0]! : String(error)),
      );
    try {
      await connection.run('SET autoinstall_known_extensions = false');
      const object = 's3://venue-lake/prod/series_points/stream=venue-devices-history/month=2026-01/data.parquet';
      await lockDown(connection, { memoryLimit: '256MB', files: [object] });
      // Past the permission check: the read then needs httpfs, which this machine lacks.
      expect(await attempt(`SELECT * FROM read_parquet('${object}')`)).not.toMatch(/Permission Error/);
      for (const path of [
        // Another object of the lake than the ones its views list: a new file (a COPY target) is refused.
        's3://venue-lake/prod/series_points/stream=venue-devices-history/month=2026-01/data-evil.parquet',
        's3://venue-lake/prod/_venue_etl_manifest.json',
        's3://venue-lake/other/x.parquet',
        's3://venue-lake/prod-copy/x.parquet',
        's3://another-bucket/prod/x.parquet',
        join(tmpdir(), 'x.parquet'),
      ]) {
        expect(await attempt(`SELECT * FROM read_parquet('${path}')`), path).toMatch(/Permission Error: Cannot access file/);
      }
      expect(await attempt(`COPY (SELECT 1) TO 's3://venue-lake/prod/x.csv'`)).not.toBe('ok');
      expect(await attempt('SET enable_external_access = true')).not.toBe('ok');
      expect(await attempt(`SET allowed_directories = ['/']`)).not.toBe('ok');
      expect(await attempt(`SET memory_limit = '100GB'`)).toMatch(/configuration has been locked/);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
