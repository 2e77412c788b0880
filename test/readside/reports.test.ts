import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { listNamedSql, loadNamedSql, openParquetSource, openWarehouseSource, type SqlParams } from '../../src/readside/index.js';
import { variableStatements } from '../../src/readside/variables.js';
import { sql } from '../../src/warehouse/sql-files.js';
import { DAYS, report, repoRoot, runCli, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2, withFile, useSeededCli } from './fixture.js';

const REQUIRED = ['daily-devices', 'daily-logins', 'login-method-shares', 'rating-distribution', 'remarketing-trend', 'venue-access', 'freshness'];

describe('named reports', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  const onWarehouse = (name: string, params?: SqlParams) => report(openWarehouseSource(warehouse), name, params);
  const onParquet = (name: string, params?: SqlParams) => report(openParquetSource(parquet), name, params);

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('every file starts with a one-line description comment', () => {
    const names = listNamedSql('reports').map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(REQUIRED));
    for (const file of readdirSync(join(repoRoot, 'sql', 'reports'))) {
      const first = readFileSync(join(repoRoot, 'sql', 'reports', file), 'utf8').split('\n')[0];
      expect(first, file).toMatch(/^-- \S.{10,}$/);
    }
  });

  it('each report returns rows on seeded data, the same on the warehouse and on the Parquet export', async () => {
    for (const { name } of listNamedSql('reports')) {
      const rows = await onWarehouse(name);
      expect(rows.length, name).toBeGreaterThan(0);
      expect(await onParquet(name), name).toEqual(rows);
    }
  });

  it('daily-devices sums hours to days and leaves non-additive unique counts out of hourly days', async () => {
    const rows = await onWarehouse('daily-devices');
    expect(rows).toHaveLength(2 * DAYS);
    const day = utcDay(-5);
    const [hourly] = rows.filter((r) => r.venue_id === V2 && r.day === day);
    expect(hourly).toMatchObject({ loaded_grain: 'hour', unique_detected: null, unique_authenticated: null });
    const [daily] = rows.filter((r) => r.venue_id === V1 && r.day === day);
    expect(daily.loaded_grain).toBe('day');
    expect(typeof daily.unique_detected).toBe('number');
    const [expected] = await withFile(
      warehouse,
      async (query) =>
        await query(`SELECT sum(value)::INTEGER AS detected FROM series_points WHERE venue_id = '${V2}' AND metric = 'detected'
                      AND stream = 'venue-devices-history' AND timezone('UTC', ts)::DATE = DATE '${day}'`),
    );
    expect(hourly.detected).toBe(expected.detected);
  });

  it('--venues, --from and --to narrow the rows', async () => {
    const rows = await onWarehouse('daily-logins', { venues: [V1], from: utcDay(-10), to: utcDay(-4) });
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r) => r.venue_id))).toEqual(new Set([V1]));
    expect(rows.map((r) => r.day)).toEqual([-10, -9, -8, -7, -6, -5, -4].map(utcDay));
    const shares = await onWarehouse('login-method-shares', { venues: [V2] });
    expect(shares).toHaveLength(7);
    expect(shares.reduce((sum, r) => sum + Number(r.share), 0)).toBeCloseTo(1, 3);
  });

  it('venue-access lists current roles only, inherited project roles included', async () => {
    const rows = await onWarehouse('venue-access');
    expect(rows.map((r) => [r.venue_id, r.email, r.granted_by, r.permissions])).toEqual([
      [V1, 'owner@example.com', 'venue', ['venues.read', 'venues.update']],
      [V1, 'reader@example.com', 'project', ['basic_data.read', 'venues.read']],
      [V2, 'reader@example.com', 'project', ['basic_data.read', 'venues.read']],
    ]);
  });

  it('rating-distribution counts add up and the average comes from the distribution', async () => {
    for (const row of await onWarehouse('rating-distribution')) {
      const counts = [1, 2, 3, 4, 5].map((k) => Number(row[`rated_${k}`]));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(row.rates);
      const average = counts.reduce((sum, n, i) => sum + n * (i + 1), 0) / Number(row.rates);
      expect(row.average_rate).toBeCloseTo(average, 3);
    }
  });

  it('freshness says how far behind each stream is', async () => {
    const rows = await onWarehouse('freshness', { staleAfterDays: 2 });
    const devices = rows.find((r) => r.stream === 'venue-devices-history');
    expect(devices).toMatchObject({ scopes: 2, oldest_cursor: utcDay(-1), days_behind: 0, stale: false, last_run_status: 'partial' });
  });

  it('peak-hours: shares of a venue, metric and weekday add up to 1; --tz relabels the hours, UTC by default', async () => {
    const utc = await onWarehouse('peak-hours', { venues: [V2] });
    expect(utc.length).toBeGreaterThan(0);
    // Only the hour grain (V2), per venue and for all venues.
    expect(new Set(utc.map((r) => r.venue_id))).toEqual(new Set([V2, 'all']));
    const sums = new Map<string, number>();
    for (const r of utc) {
      const key = `${String(r.venue_id)}|${String(r.metric)}|${String(r.weekday)}`;
      sums.set(key, (sums.get(key) ?? 0) + Number(r.share ?? 0));
    }
    for (const [key, sum] of sums) expect(sum, key).toBeCloseTo(1, 2);
    // unique counts and averages are not additive: left out.
    expect(utc.some((r) => String(r.metric).startsWith('unique-') || r.metric === 'rates-average')).toBe(false);
    // Two hours east of UTC, every hour's share of the week moves two hours later.
    const east = await onWarehouse('peak-hours', { venues: [V2], tz: 'Etc/GMT-2' });
    const everyDay = (rows: typeof utc, shift: number) =>
      new Map(rows.filter((r) => r.weekday === null && r.venue_id === V2).map((r) => [`${String(r.metric)}|${(Number(r.hour) + shift) % 24}`, r.share]));
    expect(everyDay(east, 0)).toEqual(everyDay(utc, 2));
    expect(await onWarehouse('peak-hours', { venues: [V2], tz: 'UTC' })).toEqual(utc);
  });

  it('each file runs as is in a DuckDB session after SET VARIABLE, as in the DuckDB CLI', async () => {
    await withFile(warehouse, async (query) => {
      // The venue labels the reports show, as the DuckDB CLI makes them (sql/README.md).
      await query(sql('views/venue-labels.sql'));
      // V1 is loaded by the day, V2 by the hour (peak-hours reads hours only).
      for (const statement of variableStatements({ from: utcDay(-30), to: utcDay(-1), venues: [V1, V2], staleAfterDays: 2 })) await query(statement);
      for (const { name, text } of listNamedSql('reports')) {
        const rows = await query(text);
        expect(rows.length, name).toBeGreaterThan(0);
        // V1 was loaded at day grain only: peak hours has nothing of its own to show (only V2 and their sum).
        if (name === 'peak-hours') expect(new Set(rows.map((row) => row.venue_id))).toEqual(new Set([V2, 'all']));
      }
      await query(`SET VARIABLE venue_ids = ['${V2}']`);
      await query(`SET VARIABLE tz = 'Europe/Warsaw'`);
      const peak = await query(loadNamedSql('reports', 'peak-hours').text);
      const detected = peak.filter((row) => row.venue_id === V2 && row.stream === 'venue-devices-history' && row.metric === 'detected' && row.weekday !== null);
      expect(detected).toHaveLength(7 * 24);
      expect(detected.every((row) => Number(row.hours) > 0)).toBe(true);
    });
  });
});

describe('summary reports over day and month rows', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  /** A month before the seeded days: only its month row exists. */
  const EARLY_MONTH = '2020-03-01';

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, [
      // The month of a seeded day: its day rows count, this row must not.
      `INSERT INTO summary_values VALUES ('${V1}', 'venue-users-login-methods', 'email',
         date_trunc('month', DATE '${utcDay(-10)}')::DATE, (date_trunc('month', DATE '${utcDay(-10)}') + INTERVAL 1 MONTH - INTERVAL 1 DAY)::DATE,
         99999, 'run-1', now())`,
      `INSERT INTO summary_values VALUES ('${V1}', 'venue-users-login-methods', 'email', DATE '${EARLY_MONTH}', DATE '2020-03-31', 1000, 'run-1', now())`,
      // One day of that month missing at the day grain, whatever today is: its month row counts.
      `DELETE FROM summary_values WHERE venue_id = '${V1}' AND stream = 'venue-users-login-methods' AND metric = 'email'
         AND period_start = DATE '${utcDay(-10)}' AND period_end = period_start`,
    ]);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('login-method-shares counts each day once: the month row of a month the days cover in part, the days elsewhere, on the warehouse and on the Parquet export', async () => {
    // The month of utcDay(-10) has a month row and all but one of its seeded days: the month row
    // counts and those days do not (counting them alone would lose the rest of the month); days
    // of other months count; the early month has only its month row.
    const [days] = await runOnFile(
      warehouse,
      `WITH d AS (SELECT period_start, value FROM summary_values
                   WHERE venue_id = '${V1}' AND stream = 'venue-users-login-methods' AND metric = 'email' AND period_end = period_start),
            m AS (SELECT date_trunc('month', DATE '${utcDay(-10)}')::DATE AS first, (date_trunc('month', DATE '${utcDay(-10)}') + INTERVAL 1 MONTH - INTERVAL 1 DAY)::DATE AS last)
       SELECT (SELECT sum(value) FROM d, m WHERE period_start NOT BETWEEN m.first AND m.last)::INTEGER AS outside,
              (SELECT count(*) FROM d, m WHERE period_start BETWEEN m.first AND m.last)::INTEGER AS held,
              (SELECT date_diff('day', first, last) + 1 FROM m)::INTEGER AS month_days`,
    );
    expect(Number(days.held)).toBeGreaterThan(0);
    expect(Number(days.held)).toBeLessThan(Number(days.month_days));
    const rows = await report(openWarehouseSource(warehouse), 'login-method-shares', { venues: [V1] });
    expect(rows.find((r) => r.method === 'email')).toMatchObject({ logins: Number(days.outside ?? 0) + 99999 + 1000, first_day: EARLY_MONTH });
    expect(await report(openParquetSource(parquet), 'login-method-shares', { venues: [V1] })).toEqual(rows);
  });
});

describe('venue-etl report (CLI)', () => {
  const { config } = useSeededCli();

  it('lists the reports with their description', async () => {
    const run = await runCli(['report']);
    expect(run.code, run.stderr).toBe(0);
    for (const name of REQUIRED) expect(run.stdout).toMatch(new RegExp(`^${name}\\s+\\S`, 'm'));
    expect(run.stdout).toContain('Detected vs authenticated devices per venue and day');
  });

  it('runs a report with options and formats', async () => {
    const run = await runCli(['report', 'daily-devices', '--config', config, '--venues', V1, '--from', utcDay(-3), '--to', utcDay(-2), '--format', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('venue,venue_id,day,detected,authenticated,authenticated_share,unique_detected,unique_authenticated,loaded_grain');
    // V1's label: the name the receiver's events gave it.
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([`Café Central,${V1},${utcDay(-3)}`, `Café Central,${V1},${utcDay(-2)}`]);
    const table = await runCli(['report', 'venue-access', '--config', config]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^venue\s+venue_id\s+account_id\s+email/);
    expect(table.stdout).toMatch(new RegExp(`^Café Central\\s+${V1}\\s`, 'm'));
    expect(table.stdout).toContain('(3 rows)');
  });

  it('refuses an unknown report and a bad date with exit 2', async () => {
    const unknown = await runCli(['report', 'nope', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no report named "nope"');
    expect(unknown.stderr).toContain('daily-devices');
    const badDate = await runCli(['report', 'daily-logins', '--config', config, '--from', '2026-02-30']);
    expect(badDate.code).toBe(2);
    const badVenue = await runCli(['report', 'daily-logins', '--config', config, '--venues', "x' OR 1=1 --"]);
    expect(badVenue.code).toBe(2);
  });
});
