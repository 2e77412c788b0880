import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadNamedSql, openWarehouseSource, runNamedSql } from '../../src/readside/index.js';
import { runOnFile, seededWarehouse, tempDir, V2, withFile } from './fixture.js';

/**
 * Read commands open the warehouse read-only and never migrate it: a file last written before
 * migration 006 has no `additive_metrics` macro, which peak-hours and hours-vs-days read. The
 * read side creates the report macros as temporary ones for its connection; the file stays as it is.
 */
describe('a warehouse written before the additive_metrics macro', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  async function rows(path: string, kind: 'reports' | 'checks', name: string): Promise<readonly unknown[]> {
    const source = await openWarehouseSource(path);
    try {
      const result = await runNamedSql(source.connection, loadNamedSql(kind, name), {});
      return result.rows;
    } finally {
      await source.close();
    }
  }

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
