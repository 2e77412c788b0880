/**
 * The peak-hours rollup (sql/migrations/009_peak_hours_rollup.sql) equals its definition over
 * series_points after every kind of write the warehouse module makes: a first load, a window
 * replaced with other values (a late revision: unknowns, fewer points, an hour off the hour), two
 * venues' windows in one round across a month edge, a day window beside the hours, and `reset`
 * of a venue from a day on. The definition is stated in test/peak-hours-rollup.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/warehouse/index.js';
import { EXACT, ROLLUP_DIFFERENCES } from '../peak-hours-rollup.js';
import { seriesSlice, useFreshWarehouse, VENUE_A, VENUE_B } from './helpers.js';

const DEVICES = 'venue-devices-history';
const USERS = 'venue-users-history';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

type Row = readonly [string, 'hour' | 'day', string, number | null];

/** Hour rows of `metrics` on the UTC days from..to, values from a seed (every 7th unknown when `unknowns`). */
function hours(metrics: readonly string[], from: string, days: number, seed: number, unknowns = false): Row[] {
  const rows: Row[] = [];
  const start = Date.parse(`${from}T00:00:00Z`);
  for (const metric of metrics) {
    for (let h = 0; h < days * 24; h++) {
      const ts = new Date(start + h * 3_600_000).toISOString().replace('.000Z', 'Z');
      const value = (h * 31 + seed * 17 + metric.length) % 23;
      rows.push([metric, 'hour', ts, unknowns && (h + seed) % 7 === 0 ? null : value]);
    }
  }
  return rows;
}

const hourSlice = (venue: string, stream: string, from: string, to: string, rows: readonly Row[]) =>
  seriesSlice(venue, stream, from, to, rows, { seriesGrain: 'hour' });

async function differences(): Promise<Record<string, number>> {
  const [row] = await warehouse.query<Record<string, number>>(ROLLUP_DIFFERENCES);
  return row!;
}

describe('the peak-hours rollup, kept by the warehouse module', () => {
  it('equals its definition after loads, replaced windows and a reset', async () => {
    expect(await differences()).toMatchObject({ ...EXACT, slots: 0, totals: 0 });

    // Two venues, two streams, across the January/February edge, in one round.
    await warehouse.commitSlices('run-1', [
      hourSlice(VENUE_A, DEVICES, '2026-01-29', '2026-02-02', hours(['detected', 'authenticated', 'unique-detected'], '2026-01-29', 5, 1)),
      hourSlice(VENUE_B, DEVICES, '2026-01-29', '2026-02-02', hours(['detected', 'authenticated'], '2026-01-29', 5, 2, true)),
      hourSlice(VENUE_A, USERS, '2026-01-30', '2026-02-01', hours(['logins'], '2026-01-30', 3, 3)),
    ]);
    const first = await differences();
    expect(first).toMatchObject(EXACT);
    expect(first.slots).toBeGreaterThan(0);
    expect(first.totals).toBe(2 * 5 * 24 + 3 * 24);

    // A late revision of one day: other values, unknowns, an hour missing, one off the hour.
    const revised = hours(['detected', 'authenticated'], '2026-01-31', 1, 9, true).filter((r) => !r[2].endsWith('T05:00:00Z'));
    revised.push(['detected', 'hour', '2026-01-31T12:30:00Z', 4]);
    await warehouse.commitSlices('run-2', [hourSlice(VENUE_A, DEVICES, '2026-01-31', '2026-01-31', revised)]);
    expect(await differences()).toMatchObject(EXACT);

    // The other venue's window emptied of one metric; a day window beside the hours changes nothing here.
    await warehouse.commitSlices('run-3', [
      hourSlice(VENUE_B, DEVICES, '2026-02-01', '2026-02-02', hours(['authenticated'], '2026-02-01', 2, 4)),
      seriesSlice(VENUE_A, DEVICES, '2026-01-29', '2026-02-02', [['detected', 'day', '2026-01-30T00:00:00Z', 99]]),
    ]);
    expect(await differences()).toMatchObject(EXACT);

    // reset --rows of one venue and stream from a day on.
    await warehouse.reset({ streams: [DEVICES], scopes: [VENUE_A], from: '2026-02-01', rows: true }, 'reset-1');
    const afterReset = await differences();
    expect(afterReset).toMatchObject(EXACT);
    const [left] = await warehouse.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM peak_hour_slots WHERE venue_id = '${VENUE_A}' AND pair IN (1, 2) AND month = DATE '2026-02-01'`,
    );
    expect(left!.n).toBe(0);

    // Everything of a stream.
    await warehouse.reset({ streams: [USERS], rows: true }, 'reset-2');
    expect(await differences()).toMatchObject(EXACT);
  });
});
