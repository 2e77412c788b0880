import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadNamedSql, openWarehouseSource, runNamedSql } from '../../src/readside/index.js';
import { awkwardWarehouse } from './awkward-warehouse.js';
import { REBUILD_ROLLUP, repoRoot, runOnFile, seededWarehouse, tempDir, V2, withFile } from './fixture.js';

/**
 * Read commands open the warehouse read-only and never migrate it: a file last written before
 * migration 006 has no `additive_metrics` macro, which peak-hours and hours-vs-days read. The
 * read side creates the report macros as temporary ones for its connection; the file stays as it is.
 */
async function rows(path: string, kind: 'reports' | 'checks', name: string): Promise<readonly unknown[]> {
  const source = await openWarehouseSource(path);
  try {
    const result = await runNamedSql(source.connection, loadNamedSql(kind, name), {});
    return result.rows;
  } finally {
    await source.close();
  }
}

describe('a warehouse written before the additive_metrics macro', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('reads peak-hours and hours-vs-days as the migrated file does, without migrating it', async () => {
    const current = join(dir, 'current.duckdb');
    const older = join(dir, 'older.duckdb');
    await seededWarehouse(current);
    await seededWarehouse(older);
    // Nor the peak-hours rollup of migration 009, which came later: the read side stands in for it.
    await runOnFile(older, [
      'DROP MACRO TABLE additive_metrics',
      'DELETE FROM schema_migrations WHERE version = 6',
      'DROP TABLE peak_hour_slots',
      'DROP TABLE peak_hour_totals',
      'DROP MACRO peak_hours_rolled_up',
      'DELETE FROM schema_migrations WHERE version = 9',
    ]);
    // Something for hours-vs-days to find: a day point beside V2's hours, one more than their sum.
    for (const path of [current, older])
      await runOnFile(path, [
        `INSERT INTO series_points
           SELECT venue_id, stream, metric, 'day', min(ts), sum(value) + 1, 'run-1', now()
             FROM series_points
            WHERE venue_id = '${V2}' AND metric = 'logins' AND granularity = 'hour'
            GROUP BY venue_id, stream, metric, timezone('UTC', ts)::DATE
            ORDER BY 5 LIMIT 1`,
        REBUILD_ROLLUP(),
      ]);

    const peak = await rows(current, 'reports', 'peak-hours');
    expect(peak.length).toBeGreaterThan(0);
    expect(await rows(older, 'reports', 'peak-hours')).toEqual(peak);
    const mismatches = await rows(current, 'checks', 'hours-vs-days');
    expect(mismatches).toHaveLength(1);
    expect(await rows(older, 'checks', 'hours-vs-days')).toEqual(mismatches);

    const left = await withFile(older, (query) => query(`SELECT count(*) AS n FROM duckdb_functions() WHERE function_name = 'additive_metrics'`));
    expect(Number(left[0]!.n)).toBe(0);
  });
});

/**
 * A file last written before migration 008 has no series_daily rollup, and its series_day_totals
 * is 003's (over the raw points). The read side reads it through a temporary view of the rollup's
 * definition and the temporary macro of the grain rule: the reports give the migrated file's rows.
 */
describe('a warehouse written before the series_daily rollup', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('reads the series reports and checks as the migrated file does, without migrating it', async () => {
    const current = join(dir, 'current.duckdb');
    const older = join(dir, 'older.duckdb');
    await awkwardWarehouse(current);
    await awkwardWarehouse(older);
    const macros003 = readFileSync(join(repoRoot, 'sql', 'migrations', '003_report_macros.sql'), 'utf8');
    await runOnFile(older, ['DROP TABLE series_daily', macros003, 'DELETE FROM schema_migrations WHERE version = 8']);
    for (const [kind, name] of [
      ['reports', 'venue-ranking'],
      ['reports', 'daily-devices'],
      ['reports', 'remarketing-trend'],
      ['reports', 'coverage'],
      ['checks', 'summary-vs-series'],
      ['checks', 'series-gaps'],
      ['checks', 'series-duplicate-keys'],
      ['checks', 'hours-vs-days'],
    ] as const) {
      const expected = await rows(current, kind, name);
      expect(expected.length, name).toBeGreaterThan(0);
      expect(await rows(older, kind, name), name).toEqual(expected);
    }
    const left = await withFile(older, (query) => query(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'series_daily'`));
    expect(Number(left[0]!.n)).toBe(0);
  });
});
