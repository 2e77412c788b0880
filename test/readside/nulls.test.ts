/**
 * NULLs in the warehouse, as the API sends them: a venue's own roles have no `inherited_from`,
 * `rates-average` is null for days without rates, and any series or summary value may be null.
 * Reports must not read an unknown as 0 (sum, count and bool_and skip NULLs) and checks must not
 * call an unknown a disagreement.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { listNamedSql, openParquetSource, openWarehouseSource, runChecks } from '../../src/readside/index.js';
import { A1, A2, REBUILD_ROLLUP, report, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2, withFile } from './fixture.js';

const UNKNOWN_HOUR_DAY = utcDay(-5);
const UNKNOWN_EMBEDS_DAY = utcDay(-8);
const UNKNOWN_SUMMARY_DAY = utcDay(-12);
const UNKNOWN_METHOD_DAY = utcDay(-15);
const UNKNOWN_RATE_DAY = utcDay(-3);

const NULLS_SQL: readonly string[] = [
  // A2 holds the project's reader role on V2 (inherited) and an own editor role there too.
  `INSERT INTO venue_roles VALUES
     ('bbbbbbbb-0000-4000-8000-000000000004', '${V2}', '${A2}', 'editor', NULL, ['venues.update'], TIMESTAMPTZ '2025-02-01 00:00:00+00', NULL, 'run-1')`,
  // Days without rates: rates-average is null (the spec says so).
  `UPDATE series_points SET value = NULL
    WHERE metric = 'rates-average' AND timezone('UTC', ts)::DATE BETWEEN DATE '${utcDay(-20)}' AND DATE '${utcDay(-11)}'`,
  // One unknown hour of an additive count on an hourly venue.
  `UPDATE series_points SET value = NULL
    WHERE venue_id = '${V2}' AND metric IN ('detected', 'logins') AND ts = TIMESTAMPTZ '${UNKNOWN_HOUR_DAY} 10:00:00+00'`,
  // One unknown day of embeds on a daily venue.
  `UPDATE series_points SET value = NULL
    WHERE venue_id = '${V1}' AND metric = 'embeds' AND timezone('UTC', ts)::DATE = DATE '${UNKNOWN_EMBEDS_DAY}'`,
  // Unknown summary values: a device count, a login method, a rating bucket.
  `UPDATE summary_values SET value = NULL
    WHERE venue_id = '${V1}' AND stream = 'venue-devices-summary' AND metric = 'detected' AND period_start = DATE '${UNKNOWN_SUMMARY_DAY}'`,
  `UPDATE summary_values SET value = NULL
    WHERE venue_id = '${V1}' AND stream = 'venue-users-login-methods' AND metric = 'email' AND period_start = DATE '${UNKNOWN_METHOD_DAY}'`,
  `UPDATE summary_values SET value = NULL
    WHERE venue_id = '${V2}' AND stream = 'rating-summary' AND metric = 'rates_per_value.3' AND period_start = DATE '${UNKNOWN_RATE_DAY}'`,
];

describe('reports and checks on data with NULLs', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  const onWarehouse = (name: string) => report(openWarehouseSource(warehouse), name);

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, [...NULLS_SQL, REBUILD_ROLLUP()]);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('venue-access: an account with an own and an inherited role on a venue is granted by venue+project', async () => {
    const rows = await onWarehouse('venue-access');
    expect(rows.map((r) => [r.venue_id, r.account_id, r.granted_by, r.roles])).toEqual([
      [V1, A1, 'venue', 'owner'],
      [V1, A2, 'project', 'reader'],
      [V2, A2, 'venue+project', 'editor, reader'],
    ]);
    expect(rows[2]!.permissions).toEqual(['basic_data.read', 'venues.read', 'venues.update']);
  });

  it('daily-devices and daily-logins: a day with an unknown hour has no total, the other days keep theirs', async () => {
    const devices = await onWarehouse('daily-devices');
    const day = devices.find((r) => r.venue_id === V2 && r.day === UNKNOWN_HOUR_DAY)!;
    expect(day).toMatchObject({ detected: null, authenticated_share: null, loaded_grain: 'hour' });
    const [known] = await withFile(warehouse, (query) =>
      query(`SELECT sum(value)::INTEGER AS authenticated FROM series_points WHERE venue_id = '${V2}' AND metric = 'authenticated'
              AND timezone('UTC', ts)::DATE = DATE '${UNKNOWN_HOUR_DAY}'`),
    );
    expect(day.authenticated).toBe(known!.authenticated);
    expect(devices.filter((r) => r.detected === null).map((r) => [r.venue_id, r.day])).toEqual([[V2, UNKNOWN_HOUR_DAY]]);
    const logins = await onWarehouse('daily-logins');
    expect(logins.filter((r) => r.logins === null).map((r) => [r.venue_id, r.day])).toEqual([[V2, UNKNOWN_HOUR_DAY]]);
  });

  it('remarketing-trend: an unknown day is left out of the 7-day total and average, not counted as 0', async () => {
    const rows = (await onWarehouse('remarketing-trend')).filter((r) => r.venue_id === V1);
    const daily = await withFile(warehouse, (query) =>
      query(`SELECT strftime(timezone('UTC', ts)::DATE, '%Y-%m-%d') AS day, value FROM series_points
              WHERE venue_id = '${V1}' AND metric = 'embeds' ORDER BY ts`),
    );
    const byDay = new Map(daily.map((d) => [String(d.day), d.value === null ? null : Number(d.value)]));
    expect(rows.find((r) => r.day === UNKNOWN_EMBEDS_DAY)!.embeds).toBeNull();
    let checked = 0;
    for (const row of rows) {
      const window = [0, 1, 2, 3, 4, 5, 6].map((back) => byDay.get(shift(String(row.day), -back))).filter((v): v is number => typeof v === 'number');
      const total = window.reduce((a, b) => a + b, 0);
      expect(row.embeds_7d, String(row.day)).toBe(total);
      expect(row.avg_7d, String(row.day)).toBeCloseTo(total / window.length, 2);
      if ([0, 1, 2, 3, 4, 5, 6].some((back) => shift(String(row.day), -back) === UNKNOWN_EMBEDS_DAY)) checked++;
    }
    // Every day whose window holds the unknown day was compared.
    expect(checked).toBe(7);
  });

  it('login-method-shares and rating-distribution: an unknown count makes its total unknown, not smaller', async () => {
    const shares = await onWarehouse('login-method-shares');
    const v1 = shares.filter((r) => r.venue_id === V1);
    expect(v1.find((r) => r.method === 'email')!.logins).toBeNull();
    expect(v1.map((r) => r.share)).toEqual(v1.map(() => null));
    const v2 = shares.filter((r) => r.venue_id === V2);
    expect(v2.reduce((sum, r) => sum + Number(r.share), 0)).toBeCloseTo(1, 3);

    const ratings = (await onWarehouse('rating-distribution')).filter((r) => r.venue_id === V2);
    const month = UNKNOWN_RATE_DAY.slice(0, 7);
    expect(ratings.find((r) => r.month === month)).toMatchObject({ rated_3: null, rates: null, average_rate: null });
    for (const row of ratings.filter((r) => r.month !== month)) expect(typeof row.rates, String(row.month)).toBe('number');
  });

  it('checks: null rates-average, an unknown hour and an unknown summary are neither gaps nor disagreements', async () => {
    const source = await openWarehouseSource(warehouse);
    try {
      const results = await runChecks(source.connection, { staleAfterDays: 2 });
      expect(results.map((r) => [r.name, r.status, r.sample])).toEqual(results.map((r) => [r.name, 'ok', '']));
    } finally {
      await source.close();
    }
  });

  it('every report gives the same rows on the Parquet export', async () => {
    for (const { name } of listNamedSql('reports')) {
      expect(await report(openParquetSource(parquet), name), name).toEqual(await onWarehouse(name));
    }
  });
});

function shift(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
