/**
 * The read-side commands need only the warehouse and Parquet paths: an analyst running them
 * with the operator's config, whose API token and receiver credential come from environment
 * variables the analyst does not have, must be able to query. Commands that need those blocks
 * still name the missing variable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnv, describeRun, runCli } from '../e2e/harness.js';
import { seededWarehouse, tempDir, V1, V2 } from './fixture.js';

describe('read commands with the operator config and no secrets in the environment', () => {
  const { dir, cleanup } = tempDir();
  const config = join(dir, 'operator.config.json');
  /** No VENUE_* variable at all (childEnv drops them); only the data folder the paths use. */
  const env = childEnv({ ETL_DATA_DIR: dir });
  const run = (args: readonly string[], environment = env) => runCli([...args, '--config', config], { cwd: dir, env: environment, timeoutMs: 60_000 });

  beforeAll(async () => {
    assertBuilt();
    await seededWarehouse(join(dir, 'warehouse.duckdb'));
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: '${VENUE_API_URL}', token: '${VENUE_API_TOKEN}' },
        scope: { venues: [V1, V2] },
        warehouse: { path: '${ETL_DATA_DIR}/warehouse.duckdb' },
        parquet: { dir: '${ETL_DATA_DIR}/parquet' },
        schedule: { timezone: '${VENUE_SCHEDULE_TZ}' },
        receiver: { enabled: true, authorization: '${VENUE_RECEIVER_AUTHORIZATION}' },
      }),
    );
  });
  afterAll(cleanup);

  it('export, sql, report, check and status run (exit 0)', async () => {
    const commands: readonly (readonly string[])[] = [
      ['export', '--log-level', 'warn'],
      ['sql', 'SELECT count(*) AS n FROM series_points'],
      ['sql', 'SELECT count(*) AS n FROM series_points', '--parquet'],
      ['report', 'daily-devices', '--venues', V1],
      ['report', 'venue-access', '--parquet'],
      ['check', '--log-level', 'silent'],
      ['status'],
    ];
    for (const args of commands) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}\n${describeRun(result)}`).toBe(0);
      expect(result.stderr, args.join(' ')).not.toContain('VENUE_ETL_CONFIG');
    }
    expect((await run(['sql', 'SELECT count(*) AS n FROM series_points', '--format', 'csv'])).stdout).toBe('n\r\n13500\r\n');
  });

  it('commands that need the API or every block still name the missing variables (exit 2)', async () => {
    for (const args of [['sync'], ['backfill', '--from', '2026-01-01', '--to', '2026-01-02'], ['config']]) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}\n${describeRun(result)}`).toBe(2);
      expect(result.stderr).toContain('environment variable VENUE_API_TOKEN is not set');
    }
  });

  it('a variable the read side does need is still reported by name (exit 2)', async () => {
    const result = await run(['sql', 'SELECT 1'], childEnv());
    expect(result.code, describeRun(result)).toBe(2);
    expect(result.stderr).toContain('warehouse.path: environment variable ETL_DATA_DIR is not set');
    expect(result.stderr).not.toContain('VENUE_API_TOKEN');
  });
});
