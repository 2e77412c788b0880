import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCsv } from '../../src/readside/format-csv.js';
import { openWarehouseSource, runChecks, type CheckResult } from '../../src/readside/index.js';
import { REBUILD_ROLLUP, runCli, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2, useSeededCli, writeConfig } from './fixture.js';

async function checks(warehouse: string, streams?: readonly string[]): Promise<Record<string, CheckResult>> {
  const source = await openWarehouseSource(warehouse);
  try {
    const results = await runChecks(source.connection, { staleAfterDays: 2, ...(streams ? { streams } : {}) });
    return Object.fromEntries(results.map((r) => [r.name, r]));
  } finally {
    await source.close();
  }
}

describe('venue-etl check', () => {
  const { dir, cleanup } = tempDir();
  const clean = join(dir, 'clean', 'warehouse.duckdb');
  const broken = join(dir, 'broken', 'warehouse.duckdb');
  let cleanConfig: string;
  let brokenConfig: string;
  const gapDay = utcDay(-10);

  beforeAll(async () => {
    mkdirSync(join(dir, 'clean'));
    mkdirSync(join(dir, 'broken'));
    cleanConfig = writeConfig(join(dir, 'clean'));
    brokenConfig = writeConfig(join(dir, 'broken'));
    await seededWarehouse(clean);
    await seededWarehouse(broken);
    await runOnFile(broken, [
      // A day missing in one series: a gap between its first and last day.
      `DELETE FROM series_points WHERE venue_id = '${V1}' AND stream = 'venue-users-history' AND timezone('UTC', ts)::DATE = DATE '${gapDay}'`,
      // A duplicate key in each fact table.
      `INSERT INTO series_points SELECT * FROM series_points WHERE venue_id = '${V2}' AND stream = 'rating-history' AND metric = 'rates-average' ORDER BY ts LIMIT 1`,
      `INSERT INTO summary_values SELECT * FROM summary_values WHERE venue_id = '${V1}' AND stream = 'venue-users-login-methods' ORDER BY period_start, metric LIMIT 1`,
      // A summary that disagrees with its daily series.
      `UPDATE summary_values SET value = value + 1 WHERE venue_id = '${V1}' AND stream = 'venue-devices-summary' AND metric = 'detected' AND period_start = DATE '${utcDay(-20)}'`,
      // A cursor far behind.
      `UPDATE sync_cursors SET cursor_date = DATE '${utcDay(-9)}' WHERE stream = 'venue-remarketing-history' AND scope_id = '${V2}'`,
      // One hour of a day loaded by the hour (a partial hourly day).
      `INSERT INTO series_points VALUES ('${V1}', 'venue-remarketing-history', 'embeds', 'hour', TIMESTAMPTZ '${utcDay(-15)} 13:00:00+00', 1, 'run-x', now())`,
      // Written by hand, not by a load: the daily rollup the checks read is summed again.
      REBUILD_ROLLUP(),
    ]);
  });
  afterAll(cleanup);

  it('passes on clean data (exit 0)', async () => {
    const run = await runCli(['check', '--config', cleanConfig]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^check\s+status\s+rows found\s+sample/);
    for (const name of [
      'series-gaps',
      'series-duplicate-keys',
      'summary-duplicate-keys',
      'stale-streams',
      'summary-vs-series',
      'series-partial-hours',
      'hours-vs-days',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^${name}\\s+ok\\s+0`, 'm'));
    }
    expect(run.stdout).toContain('all 7 checks passed');
  });

  it('finds the gap, the duplicates, the stale cursor and the disagreeing summary (exit 1)', async () => {
    const run = await runCli(['check', '--config', brokenConfig, '--log-level', 'silent']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`^series-gaps\\s+FAILED\\s+1\\s+venue_id=${V1} stream=venue-users-history granularity=day gap_from=${gapDay} gap_to=${gapDay}`, 'm'),
    );
    expect(run.stdout).toMatch(new RegExp(`^series-duplicate-keys\\s+FAILED\\s+1\\s+venue_id=${V2} stream=rating-history metric=rates-average`, 'm'));
    expect(run.stdout).toMatch(/^summary-duplicate-keys\s+FAILED\s+1\s+venue_id=/m);
    expect(run.stdout).toMatch(new RegExp(`^stale-streams\\s+FAILED\\s+1\\s+stream=venue-remarketing-history scope_id=${V2} cursor_date=${utcDay(-9)}`, 'm'));
    expect(run.stdout).toMatch(/^summary-vs-series\s+FAILED\s+1\s+venue_id=\S+ stream=venue-devices-summary metric=detected /m);
    // The planted single hour, and the planted duplicate hour (25 rows that day).
    expect(run.stdout).toMatch(/^series-partial-hours\s+FAILED\s+2\s/m);
    expect(run.stdout).toContain('6 of 7 checks did not pass');
  });

  it('reports each offending row, and streams the config expects that never loaded', async () => {
    const results = await checks(broken, ['venue-devices-history', 'project-roles']);
    expect(results['series-gaps'].result?.rows).toHaveLength(1);
    expect(results['series-gaps'].sample).toContain('missing_days=1');
    expect(results['summary-vs-series'].sample).toContain('difference=1');
    expect(formatCsv(results['stale-streams'].result!)).toContain(`venue-remarketing-history,${V2},${utcDay(-9)},8,`);
    expect(results['stale-streams'].rows).toBe(2);
    expect(results['stale-streams'].sample).toContain('stream=project-roles scope_id=NULL');
    const fine = await checks(clean, ['venue-devices-history']);
    expect(Object.values(fine).map((r) => r.status)).toEqual(Object.values(fine).map(() => 'ok'));
  });
});

describe('venue-etl status', () => {
  const { config } = useSeededCli();

  it('shows cursors and freshness per stream, the last runs and the failed slices of the last run', async () => {
    const run = await runCli(['status', '--config', config]);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain('Streams: cursors and freshness');
    // The stalest scope by its label: V1's name from the events (both cursors are as old: the first id).
    expect(out).toMatch(new RegExp(`^venue-devices-history\\s+2\\s+${utcDay(-1)}\\s+Café Central\\s+${utcDay(-1)}\\s+0\\s.*\\sfalse$`, 'm'));
    expect(out).toMatch(/^accounts\s+1\s/m);
    expect(out).toContain('Last runs');
    expect(out).toMatch(/^20260102T021500000Z-bbbbbb\s+nightly-sync\s+partial\s.*\s80\s+5\s+1200\s+1$/m);
    expect(out).toMatch(/^20260101T021500000Z-aaaaaa\s+nightly-sync\s+succeeded\s/m);
    expect(out).toContain('Failed slices of the last run');
    // V2 has no name: its short id, then its id.
    expect(out).toMatch(
      new RegExp(`rating-history\\s+${V2.slice(0, 8)}\\s+${V2}\\s+${utcDay(-3)}\\s+${utcDay(-1)}\\s+VENUE_API_HTTP_500\\s+the API answered 500 three times`),
    );
  });

  it('says to run sync first when there is no warehouse', async () => {
    const { dir: empty, cleanup: done } = tempDir();
    try {
      const run = await runCli(['status', '--config', writeConfig(empty)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('VENUE_WAREHOUSE_MISSING');
      expect(run.stderr).toContain('run `venue-etl sync`');
    } finally {
      done();
    }
  });
});
