import { describe, expect, it } from 'vitest';
import type { SliceCommit, Warehouse } from '../../src/warehouse/index.js';
import { summaries, useFreshWarehouse, VENUE_A, VENUE_B } from './helpers.js';

const USERS = 'venue-users-summary';
const RATING_STATS = 'rating-statistics-summaries';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

type Row = readonly [string, string, string, string, number | null];

function slice(
  windowFrom: string,
  windowTo: string,
  grain: 'day' | 'month',
  rows: readonly Row[],
  ownsSingleDayPeriods = false,
  stream = USERS,
  scopeId = VENUE_A,
): SliceCommit {
  return { stream, scopeId, windowFrom, windowTo, summaries: { rows: summaries(stream, rows), grain, ownsSingleDayPeriods } };
}

async function stored(): Promise<string[]> {
  const rows = await warehouse.query<{ r: string }>(
    `SELECT concat_ws(' ', CASE venue_id WHEN '${VENUE_A}' THEN 'A' ELSE 'B' END, metric, period_start, period_end,
       coalesce(value::VARCHAR, 'NULL'), run_id) AS r
     FROM summary_values ORDER BY venue_id, metric, period_start, period_end`,
  );
  return rows.map((row) => row.r);
}

describe('commitSlices: summaries', () => {
  it('day and month grains own disjoint rows of the same dates', async () => {
    await warehouse.commitSlices('run-1', [
      slice('2026-01-01', '2026-01-02', 'day', [
        [VENUE_A, 'logins', '2026-01-01', '2026-01-01', 5],
        [VENUE_A, 'logins', '2026-01-02', '2026-01-02', null],
      ]),
      slice('2026-01-01', '2026-01-31', 'month', [[VENUE_A, 'logins', '2026-01-01', '2026-01-31', 40]]),
    ]);
    // Re-loading the day grain with other values leaves the month row alone, and vice versa.
    const day = await warehouse.commitSlices('run-2', [slice('2026-01-01', '2026-01-02', 'day', [[VENUE_A, 'logins', '2026-01-01', '2026-01-01', 6]])]);
    expect(day).toMatchObject({ rowsWritten: 1, changedWindows: 1 });
    expect(await stored()).toEqual(['A logins 2026-01-01 2026-01-01 6.0 run-2', 'A logins 2026-01-01 2026-01-31 40.0 run-1']);
    await warehouse.commitSlices('run-3', [slice('2026-01-01', '2026-01-31', 'month', [[VENUE_A, 'logins', '2026-01-01', '2026-01-31', 41]])]);
    expect(await stored()).toEqual(['A logins 2026-01-01 2026-01-01 6.0 run-2', 'A logins 2026-01-01 2026-01-31 41.0 run-3']);
  });

  it('single-day month rows belong to the day grain unless the slice owns them', async () => {
    // A month window cut short at its first day yields a one-day period.
    const shared = await warehouse.commitSlices('run-1', [
      slice('2026-02-01', '2026-02-01', 'month', [[VENUE_A, 'logins', '2026-02-01', '2026-02-01', 3]], false),
    ]);
    expect(shared).toMatchObject({ rowsWritten: 0, rowsOutsideWindow: 1 });

    const monthOnly = await warehouse.commitSlices('run-2', [
      slice('2026-02-01', '2026-02-01', 'month', [[VENUE_A, 'logins', '2026-02-01', '2026-02-01', 3]], true),
    ]);
    expect(monthOnly).toMatchObject({ rowsWritten: 1, rowsOutsideWindow: 0 });
    // The next month run, extended over February, replaces the single-day row by the longer one.
    await warehouse.commitSlices('run-3', [slice('2026-02-01', '2026-02-28', 'month', [[VENUE_A, 'logins', '2026-02-01', '2026-02-28', 30]], true)]);
    expect(await stored()).toEqual(['A logins 2026-02-01 2026-02-28 30.0 run-3']);
  });

  it('the window owns period starts within it only; identical reloads write nothing', async () => {
    await warehouse.commitSlices('run-1', [
      slice('2026-01-01', '2026-01-31', 'month', [[VENUE_A, 'logins', '2026-01-01', '2026-01-31', 40]]),
      slice('2026-02-01', '2026-02-28', 'month', [[VENUE_A, 'logins', '2026-02-01', '2026-02-28', 50]]),
    ]);
    const again = await warehouse.commitSlices('run-2', [
      slice('2026-02-01', '2026-02-28', 'month', [
        [VENUE_A, 'logins', '2026-01-01', '2026-01-31', 999], // outside: not this window's
        [VENUE_A, 'logins', '2026-02-01', '2026-02-28', 50],
      ]),
    ]);
    expect(again).toMatchObject({ rowsWritten: 0, unchangedWindows: 1, rowsOutsideWindow: 1 });
    expect(await stored()).toEqual(['A logins 2026-01-01 2026-01-31 40.0 run-1', 'A logins 2026-02-01 2026-02-28 50.0 run-1']);
  });

  it('rows naming their own venue replace that venue too', async () => {
    const rows: Row[] = [
      [VENUE_A, 'requests-sent', '2026-01-01', '2026-01-01', 1],
      [VENUE_B, 'requests-sent', '2026-01-01', '2026-01-01', 2],
    ];
    await warehouse.commitSlices('run-1', [slice('2026-01-01', '2026-01-01', 'day', rows, false, RATING_STATS)]);
    const again = await warehouse.commitSlices('run-2', [slice('2026-01-01', '2026-01-01', 'day', rows, false, RATING_STATS)]);
    expect(again).toMatchObject({ rowsWritten: 0, changedWindows: 0, unchangedWindows: 2 });
    await warehouse.commitSlices('run-3', [slice('2026-01-01', '2026-01-01', 'day', [rows[1]], false, RATING_STATS)]);
    expect(await stored()).toEqual(['B requests-sent 2026-01-01 2026-01-01 2.0 run-1']);
  });

  it('refuses the same period twice with different values', async () => {
    await expect(
      warehouse.commitSlices('run-1', [
        slice('2026-01-01', '2026-01-01', 'day', [
          [VENUE_A, 'logins', '2026-01-01', '2026-01-01', 1],
          [VENUE_A, 'logins', '2026-01-01', '2026-01-01', 2],
        ]),
      ]),
    ).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_INVALID_BATCH' });
    expect(await stored()).toEqual([]);
  });

  it('a slice may carry series and summaries', async () => {
    const result = await warehouse.commitSlices('run-1', [
      {
        ...slice('2026-01-01', '2026-01-01', 'day', [[VENUE_A, 'rates_per_value.1', '2026-01-01', '2026-01-01', 2]], false, 'rating-summary'),
        series: { venueId: VENUE_A, stream: 'rating-summary', metric: ['x'], granularity: ['day'], tsMs: [Date.UTC(2026, 0, 1)], value: [1] },
      },
    ]);
    expect(result).toMatchObject({ rowsWritten: 2, changedWindows: 2, rowsBySlice: [2] });
  });
});
