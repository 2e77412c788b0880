import { describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/warehouse/index.js';
import { seriesSlice, useFreshWarehouse, VENUE_A, VENUE_B } from './helpers.js';

const DEVICES = 'venue-devices-history';
const RATING = 'rating-history';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

interface PointRow {
  venue_id: string;
  stream: string;
  metric: string;
  granularity: string;
  ts: string;
  value: number | null;
  run_id: string;
}

async function points(where = 'true'): Promise<PointRow[]> {
  return warehouse.query<PointRow & Record<string, unknown>>(
    `SELECT venue_id::VARCHAR AS venue_id, stream, metric, granularity,
       strftime(ts AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS ts, value, run_id
     FROM series_points WHERE ${where} ORDER BY venue_id, stream, metric, granularity, ts`,
  );
}

const jan1to2 = [
  ['detected', 'day', '2026-01-01T00:00:00Z', 10],
  ['detected', 'day', '2026-01-02T00:00:00Z', 12],
  ['unique-detected', 'day', '2026-01-01T00:00:00Z', 4],
  ['unique-detected', 'day', '2026-01-02T00:00:00Z', null],
] as const;

describe('commitSlices: series', () => {
  it('stores rows with their types, NULL as NULL, run id and load time', async () => {
    const result = await warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2)]);
    expect(result).toMatchObject({ rowsWritten: 4, changedWindows: 1, unchangedWindows: 0, rowsOutsideWindow: 0, rowsBySlice: [4] });
    expect(await points()).toEqual([
      { venue_id: VENUE_A, stream: DEVICES, metric: 'detected', granularity: 'day', ts: '2026-01-01T00:00:00Z', value: 10, run_id: 'run-1' },
      { venue_id: VENUE_A, stream: DEVICES, metric: 'detected', granularity: 'day', ts: '2026-01-02T00:00:00Z', value: 12, run_id: 'run-1' },
      { venue_id: VENUE_A, stream: DEVICES, metric: 'unique-detected', granularity: 'day', ts: '2026-01-01T00:00:00Z', value: 4, run_id: 'run-1' },
      { venue_id: VENUE_A, stream: DEVICES, metric: 'unique-detected', granularity: 'day', ts: '2026-01-02T00:00:00Z', value: null, run_id: 'run-1' },
    ]);
    const [types] = await warehouse.query(
      `SELECT typeof(venue_id) AS v, typeof(ts) AS t, typeof(value) AS d, count(*) FILTER (WHERE loaded_at IS NULL)::INTEGER AS no_load
       FROM series_points GROUP BY ALL`,
    );
    expect(types).toEqual({ v: 'UUID', t: 'TIMESTAMP WITH TIME ZONE', d: 'DOUBLE', no_load: 0 });
  });

  it('a second identical commit writes nothing and keeps run_id and loaded_at', async () => {
    await warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2)]);
    const before = await warehouse.query('SELECT loaded_at::VARCHAR AS l FROM series_points ORDER BY all');
    // Same rows in another order: still the same set.
    const again = await warehouse.commitSlices('run-2', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', [...jan1to2].reverse())]);
    expect(again).toMatchObject({ rowsWritten: 0, changedWindows: 0, unchangedWindows: 1 });
    expect(new Set((await points()).map((p) => p.run_id))).toEqual(new Set(['run-1']));
    expect(await warehouse.query('SELECT loaded_at::VARCHAR AS l FROM series_points ORDER BY all')).toEqual(before);
  });

  it('sees changes that keep the row count and the multiset of values', async () => {
    await warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2)]);
    const swapped = [
      ['detected', 'day', '2026-01-01T00:00:00Z', 12],
      ['detected', 'day', '2026-01-02T00:00:00Z', 10],
      ['unique-detected', 'day', '2026-01-01T00:00:00Z', 4],
      ['unique-detected', 'day', '2026-01-02T00:00:00Z', null],
    ] as const;
    expect((await warehouse.commitSlices('run-2', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', swapped)])).changedWindows).toBe(1);
    const nullToZero = swapped.map((r) => (r[3] === null ? ([r[0], r[1], r[2], 0] as const) : r));
    expect((await warehouse.commitSlices('run-3', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', nullToZero)])).changedWindows).toBe(1);
    const renamed = nullToZero.map((r) => (r[0] === 'detected' ? (['Detected', r[1], r[2], r[3]] as const) : r));
    expect((await warehouse.commitSlices('run-4', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', renamed)])).changedWindows).toBe(1);
    expect((await points()).map((p) => [p.metric, p.granularity, p.value, p.run_id])).toEqual([
      ['Detected', 'day', 12, 'run-4'],
      ['Detected', 'day', 10, 'run-4'],
      ['unique-detected', 'day', 4, 'run-4'],
      ['unique-detected', 'day', 0, 'run-4'],
    ]);
  });

  it('replaces the window: removes rows no longer sent, keeps other windows, venues and streams', async () => {
    await warehouse.commitSlices('run-1', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2),
      seriesSlice(VENUE_A, DEVICES, '2026-01-03', '2026-01-03', [['detected', 'day', '2026-01-03T00:00:00Z', 7]]),
      seriesSlice(VENUE_B, DEVICES, '2026-01-01', '2026-01-02', [['detected', 'day', '2026-01-01T00:00:00Z', 99]]),
      seriesSlice(VENUE_A, RATING, '2026-01-01', '2026-01-02', [['rates-count', 'day', '2026-01-01T00:00:00Z', 3]]),
    ]);
    const result = await warehouse.commitSlices('run-2', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', [['detected', 'day', '2026-01-02T00:00:00Z', 13]]),
    ]);
    expect(result).toMatchObject({ rowsWritten: 1, changedWindows: 1 });
    expect((await points()).map((p) => [p.venue_id === VENUE_A ? 'A' : 'B', p.stream, p.metric, p.ts.slice(0, 10), p.value, p.run_id])).toEqual([
      ['A', RATING, 'rates-count', '2026-01-01', 3, 'run-1'],
      ['A', DEVICES, 'detected', '2026-01-02', 13, 'run-2'],
      ['A', DEVICES, 'detected', '2026-01-03', 7, 'run-1'],
      ['B', DEVICES, 'detected', '2026-01-01', 99, 'run-1'],
    ]);
  });

  it('an empty batch empties its window', async () => {
    await warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2)]);
    const result = await warehouse.commitSlices('run-2', [seriesSlice(VENUE_A, DEVICES, '2026-01-02', '2026-01-02', [])]);
    expect(result).toMatchObject({ rowsWritten: 0, changedWindows: 1 });
    expect((await points()).map((p) => p.ts.slice(0, 10))).toEqual(['2026-01-01', '2026-01-01']);
  });

  it('keeps the hour and day grains of a window side by side: replacing one never touches the other', async () => {
    const USERS = 'venue-users-history';
    const hours = (base: number) =>
      Array.from({ length: 48 }, (_, h) => ['logins', 'hour', new Date(Date.UTC(2026, 0, 1, h)).toISOString(), base + h] as const);
    const days = (a: number, b: number) =>
      [
        ['logins', 'day', '2026-01-01T00:00:00Z', a],
        ['logins', 'day', '2026-01-02T00:00:00Z', b],
      ] as const;
    await warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, USERS, '2026-01-01', '2026-01-02', hours(0), { seriesGrain: 'hour' })]);
    await warehouse.commitSlices('run-2', [seriesSlice(VENUE_A, USERS, '2026-01-01', '2026-01-02', days(276, 852))]);
    const grains = async () =>
      Object.fromEntries(
        (
          await warehouse.query<{ g: string; n: number; runs: string } & Record<string, unknown>>(
            `SELECT granularity::VARCHAR AS g, count(*)::INTEGER AS n, string_agg(DISTINCT run_id, ',') AS runs FROM series_points GROUP BY ALL`,
          )
        ).map((r) => [r.g, [r.n, r.runs]]),
      );
    expect(await grains()).toEqual({ hour: [48, 'run-1'], day: [2, 'run-2'] });
    // A new day-grain answer replaces the days only; a new hour-grain answer (fewer of them: an
    // empty window) the hours only.
    await warehouse.commitSlices('run-3', [seriesSlice(VENUE_A, USERS, '2026-01-01', '2026-01-02', days(1, 2))]);
    expect(await grains()).toEqual({ hour: [48, 'run-1'], day: [2, 'run-3'] });
    await warehouse.commitSlices('run-4', [seriesSlice(VENUE_A, USERS, '2026-01-02', '2026-01-02', [], { seriesGrain: 'hour' })]);
    expect(await grains()).toEqual({ hour: [24, 'run-1'], day: [2, 'run-3'] });
    // The same slices twice in one group: the two grains are not an overlap.
    await warehouse.commitSlices('run-5', [
      seriesSlice(VENUE_A, USERS, '2026-01-01', '2026-01-02', hours(100), { seriesGrain: 'hour' }),
      seriesSlice(VENUE_A, USERS, '2026-01-01', '2026-01-02', days(5, 6)),
    ]);
    expect(await grains()).toEqual({ hour: [48, 'run-5'], day: [2, 'run-5'] });
  });

  it('refuses rows of the other grain in a window and writes nothing', async () => {
    await expect(
      warehouse.commitSlices('run-1', [seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', [['detected', 'hour', '2026-01-01T05:00:00Z', 1]])]),
    ).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_INVALID_BATCH', message: expect.stringMatching(/day window .* holds hour rows/) });
    await expect(
      warehouse.commitSlices('run-1', [
        seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', [['detected', 'day', '2026-01-01T00:00:00Z', 1]], { seriesGrain: 'hour' }),
      ]),
    ).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_INVALID_BATCH' });
    expect(await points()).toHaveLength(0);
  });

  it('drops rows outside the window instead of storing them where no window owns them', async () => {
    const result = await warehouse.commitSlices('run-1', [
      seriesSlice(
        VENUE_A,
        DEVICES,
        '2026-01-02',
        '2026-01-02',
        [
          ['detected', 'hour', '2026-01-01T23:00:00Z', 1],
          ['detected', 'hour', '2026-01-02T23:00:00Z', 2],
          ['detected', 'hour', '2026-01-03T00:00:00Z', 3],
        ],
        { seriesGrain: 'hour' },
      ),
    ]);
    expect(result).toMatchObject({ rowsWritten: 1, rowsOutsideWindow: 2 });
    expect((await points()).map((p) => p.ts)).toEqual(['2026-01-02T23:00:00Z']);
  });

  it('stores identical duplicate points once and refuses contradicting ones', async () => {
    const dup = await warehouse.commitSlices('run-1', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', [
        ['detected', 'day', '2026-01-01T00:00:00Z', 5],
        ['detected', 'day', '2026-01-01T00:00:00Z', 5],
        ['rates-average', 'day', '2026-01-01T00:00:00Z', null],
        ['rates-average', 'day', '2026-01-01T00:00:00Z', null],
      ]),
    ]);
    expect(dup.rowsWritten).toBe(2);
    expect(await points()).toHaveLength(2);

    await expect(
      warehouse.commitSlices('run-2', [
        seriesSlice(VENUE_A, DEVICES, '2026-01-02', '2026-01-02', [['detected', 'day', '2026-01-02T00:00:00Z', 1]]),
        seriesSlice(VENUE_B, DEVICES, '2026-01-01', '2026-01-01', [
          ['detected', 'day', '2026-01-01T00:00:00Z', 5],
          ['detected', 'day', '2026-01-01T00:00:00Z', null],
        ]),
      ]),
    ).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_INVALID_BATCH', message: expect.stringMatching(/twice with different values/) });
    // Nothing of the refused group landed, not even its valid slice.
    expect(await points()).toHaveLength(2);
  });

  it('refuses rows filed under another venue than the slice and writes nothing', async () => {
    const slice = seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', [['detected', 'day', '2026-01-01T00:00:00Z', 1]]);
    await expect(warehouse.commitSlices('run-1', [{ ...slice, scopeId: VENUE_B }])).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_INVALID_BATCH',
    });
    await expect(warehouse.commitSlices('run-1', [{ ...slice, series: { ...slice.series!, granularity: ['minute' as 'hour'] } }])).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_INVALID_BATCH',
    });
    expect(await points()).toHaveLength(0);
  });

  it('overlapping slices of one group apply in order, the later one winning', async () => {
    const result = await warehouse.commitSlices('run-1', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-02', jan1to2),
      seriesSlice(VENUE_A, DEVICES, '2026-01-02', '2026-01-03', [
        ['detected', 'day', '2026-01-02T00:00:00Z', 20],
        ['detected', 'day', '2026-01-03T00:00:00Z', 30],
      ]),
    ]);
    expect(result.rowsBySlice).toEqual([4, 2]);
    expect((await points()).map((p) => [p.metric, p.ts.slice(0, 10), p.value])).toEqual([
      ['detected', '2026-01-01', 10],
      ['detected', '2026-01-02', 20],
      ['detected', '2026-01-03', 30],
      ['unique-detected', '2026-01-01', 4],
    ]);
  });

  it('concurrent commits of one process are serialized, not mixed', async () => {
    const commits = Array.from({ length: 8 }, (_, i) =>
      warehouse.commitSlices(`run-${i}`, [
        seriesSlice(VENUE_A, DEVICES, `2026-01-0${i + 1}`, `2026-01-0${i + 1}`, [['detected', 'day', `2026-01-0${i + 1}T00:00:00Z`, i]]),
      ]),
    );
    const results = await Promise.all(commits);
    expect(results.map((r) => r.rowsWritten)).toEqual(Array(8).fill(1));
    expect(await points()).toHaveLength(8);
  });
});
