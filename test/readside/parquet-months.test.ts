/**
 * `--parquet` opens only the month partitions a report's range needs (the report's
 * `-- Parquet months read:` lines, src/readside/months-read.ts), and its rows stay those of the
 * warehouse: every report that declares months runs on both sides of the awkward warehouse,
 * whose fixed-date rows sit on both sides of month edges — a day in a zone far from UTC that
 * starts or ends in the other UTC month, a 7-day window reaching into the month before, a
 * summary period whose day rows lie in two months. A bound one day too narrow loses rows there.
 */
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { listNamedSql, loadNamedSql, openParquetSource, openWarehouseSource, runNamedSql, type SqlParams } from '../../src/readside/index.js';
import { formatJson } from '../../src/readside/format-json.js';
import { monthStatements, monthsRead } from '../../src/readside/months-read.js';
import { awkwardWarehouse, V3 } from './awkward-warehouse.js';
import { tempDir, utcDay, V2 } from './fixture.js';

const DECLARING = listNamedSql('reports').filter((r) => monthsRead(r.text).length > 0);

const RANGES: SqlParams[] = [
  {},
  { from: utcDay(-14), to: utcDay(-1) },
  { from: '2026-11-01', to: '2026-11-01' },
  { from: '2026-11-02', to: '2026-11-06', venues: [V3] },
  { from: '2026-10-31', to: '2026-10-31', tz: 'America/Los_Angeles' },
  { from: '2026-11-01', to: '2026-11-01', tz: 'Pacific/Auckland' },
  { from: '2026-10-01', to: '2026-10-31', tz: 'Asia/Kolkata', venues: [V2, V3] },
  { from: '2026-02-20', to: '2026-02-28' },
  { from: '2026-03-01', to: '2026-03-31' },
];

const rowsOf = async (opening: ReturnType<typeof openWarehouseSource>, text: string, name: string, params: SqlParams): Promise<unknown> => {
  const source = await opening;
  try {
    return JSON.parse(formatJson(await runNamedSql(source.connection, { ...loadNamedSql('reports', name), text }, params)));
  } finally {
    await source.close();
  }
};

describe('--parquet reads the months a report’s range needs, and returns the warehouse’s rows', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');

  beforeAll(async () => {
    await awkwardWarehouse(warehouse);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('the reports over a range of days declare the months they read', () => {
    expect(DECLARING.map((r) => r.name).sort()).toEqual([
      'daily-devices',
      'daily-logins',
      'login-method-shares',
      'peak-hours',
      'rating-distribution',
      'rating-request-funnel',
      'remarketing-trend',
      'users-summary',
      'venue-ranking',
    ]);
  });

  for (const report of DECLARING) {
    it(`${report.name}: the same rows on both sides, at month edges and in far time zones`, async () => {
      let rows = 0;
      for (const params of RANGES) {
        const expected = await rowsOf(openWarehouseSource(warehouse), report.text, report.name, params);
        const actual = await rowsOf(openParquetSource(parquet), report.text, report.name, params);
        expect({ params, rows: actual }).toEqual({ params, rows: expected });
        rows += Array.isArray(expected) ? expected.length : 0;
      }
      expect(rows).toBeGreaterThan(0);
    });
  }

  it('a corrupt file in a month outside the range is never opened; without the declaration it is', async () => {
    const copy = join(dir, 'parquet-corrupt');
    cpSync(parquet, copy, { recursive: true });
    // October 2026 of the remarketing stream; the range's 7-day windows start on 2026-11-02.
    const stream = join(copy, 'series_points', 'stream=venue-remarketing-history');
    const october = join(stream, 'month=2026-10');
    for (const file of readdirSync(october)) writeFileSync(join(october, file), 'not a parquet file');
    const report = loadNamedSql('reports', 'remarketing-trend');
    const params: SqlParams = { from: '2026-11-08', to: '2026-11-10' };
    const expected = await rowsOf(openWarehouseSource(warehouse), report.text, report.name, params);
    expect(expected).not.toEqual([]);
    expect(await rowsOf(openParquetSource(copy), report.text, report.name, params)).toEqual(expected);
    const undeclared = report.text.replace(/^-- Parquet months read:.*$/m, '--');
    await expect(rowsOf(openParquetSource(copy), undeclared, report.name, params)).rejects.toThrow(/month=2026-10/);
  });
});

describe('the declaration', () => {
  it('widens by its days and turns them into months; NULL where a side has no bound or no declaration', () => {
    const text = '-- Parquet months read: series_points from from_date - 1 day to to_date + 1 day\nSELECT 1';
    expect(monthStatements(text, { from: '2026-11-01', to: '2026-11-30' })).toEqual([
      "SET VARIABLE series_points_first_month = '2026-10'",
      "SET VARIABLE series_points_last_month = '2026-12'",
      'SET VARIABLE summary_values_first_month = NULL::VARCHAR',
      'SET VARIABLE summary_values_last_month = NULL::VARCHAR',
    ]);
    expect(monthStatements(text, { to: '2026-11-29' }).slice(0, 2)).toEqual([
      'SET VARIABLE series_points_first_month = NULL::VARCHAR',
      "SET VARIABLE series_points_last_month = '2026-11'",
    ]);
  });

  it('a malformed or repeated line is refused rather than read as "every month"', () => {
    expect(() => monthsRead('-- Parquet months read: series_points from from_date - 1 to to_date')).toThrow(/is not a declaration/);
    expect(() => monthsRead('-- Parquet months read: venues from from_date to to_date')).toThrow(/is not a declaration/);
    const twice = '-- Parquet months read: series_points from from_date to to_date\n';
    expect(() => monthsRead(twice + twice)).toThrow(/twice/);
  });
});
