/**
 * A summary stream whose older periods are months and recent ones days (sync.summaryGrain
 * 'tiered'), and the months where both grains meet: summary_periods, the reports' one way to
 * read summaries, must count every day once — the days when all of a month's days are held by
 * the day, the month otherwise (a sync whose cursor fell behind the day horizon loads the month
 * of its cursor by the month, whose first days are already held by the day).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { openParquetSource, openWarehouseSource, type QuerySource } from '../../src/readside/index.js';
import { runReadOnly } from '../../src/readside/index.js';
import { formatJson } from '../../src/readside/format-json.js';
import { report, runOnFile, seededWarehouse, tempDir, V1 } from './fixture.js';

const STREAM = 'venue-users-summary';
/** Logins of every day; a month row holds the month's true total, 10 x its days. */
const PER_DAY = 10;

const days = (from: string, to: string): string => `SELECT range::DATE AS d FROM range(DATE '${from}', DATE '${to}' + 1, INTERVAL 1 DAY)`;
const monthRow = (from: string, to: string, value: number) =>
  `INSERT INTO summary_values VALUES ('${V1}', '${STREAM}', 'logins', DATE '${from}', DATE '${to}', ${value}, 'run-9', now())`;
const dayRows = (from: string, to: string) =>
  `INSERT INTO summary_values SELECT '${V1}', '${STREAM}', 'logins', d, d, ${PER_DAY}, 'run-9', now() FROM (${days(from, to)})`;

const PERIODS_SQL: readonly string[] = [
  // 2019-11: month only (the month tier).
  monthRow('2019-11-01', '2019-11-30', 300),
  // 2019-12: month and every day (a later backfill moved the tier): the days count.
  monthRow('2019-12-01', '2019-12-31', 9999),
  dayRows('2019-12-01', '2019-12-31'),
  // 2020-01: month and its first 15 days only (a stale cursor): the month counts.
  monthRow('2020-01-01', '2020-01-31', 310),
  dayRows('2020-01-01', '2020-01-15'),
  // 2020-02: days only (the day tier), up to the last complete day.
  dayRows('2020-02-01', '2020-02-10'),
];

const EXPECTED = [
  { month: '2019-11', logins: 300 },
  { month: '2019-12', logins: 310 },
  { month: '2020-01', logins: 310 },
  { month: '2020-02', logins: 100 },
];

const MONTHLY = `SELECT strftime(period_start, '%Y-%m') AS month, sum(value)::BIGINT AS logins
  FROM summary_periods('${STREAM}', DATE '2019-11-01', DATE '2020-02-29', ['${V1}']) WHERE metric = 'logins' GROUP BY ALL ORDER BY month`;

async function rows(opening: Promise<QuerySource>, query: string): Promise<unknown> {
  const source = await opening;
  try {
    return JSON.parse(formatJson(await runReadOnly(source.connection, query)));
  } finally {
    await source.close();
  }
}

describe('summary periods: months before, days after, and the months where both grains meet', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, PERIODS_SQL);
    await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('a monthly total counts each day exactly once, on the warehouse and the export', async () => {
    expect(await rows(openWarehouseSource(warehouse), MONTHLY)).toEqual(EXPECTED);
    expect(await rows(openParquetSource(parquet), MONTHLY)).toEqual(EXPECTED);
  });

  it('users-summary shows the month where some days are missing and the days where none is', async () => {
    const params = { from: '2019-11-01', to: '2020-02-29', venues: [V1] };
    const shown = await report(openWarehouseSource(warehouse), 'users-summary', params);
    expect(await report(openParquetSource(parquet), 'users-summary', params)).toEqual(shown);
    const periods = shown.map((r) => `${String(r.period_start)}..${String(r.period_end)}`);
    expect(periods.filter((p) => p.startsWith('2019-11'))).toEqual(['2019-11-01..2019-11-30']);
    expect(periods.filter((p) => p.startsWith('2019-12'))).toHaveLength(31);
    expect(periods.filter((p) => p.startsWith('2020-01'))).toEqual(['2020-01-01..2020-01-31']);
    expect(periods.filter((p) => p.startsWith('2020-02'))).toHaveLength(10);
    expect(shown.reduce((n, r) => n + Number(r.logins), 0)).toBe(300 + 310 + 310 + 100);
  });
});
