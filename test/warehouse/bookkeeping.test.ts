import { describe, expect, it } from 'vitest';
import { backfillSliceKey, moveCursor, type Warehouse } from '../../src/warehouse/index.js';
import { seriesSlice, useFreshWarehouse, VENUE_A, VENUE_B } from './helpers.js';

const DEVICES = 'venue-devices-history';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

const day = (date: string) => [['detected', 'day', `${date}T00:00:00Z`, 1]] as const;

async function cursorOf(scopeId = VENUE_A): Promise<string | undefined> {
  return (await warehouse.readCursors(DEVICES)).find((c) => c.scopeId === scopeId)?.cursorDate;
}

describe('cursors', () => {
  it('advance moves to the max date and never backwards', async () => {
    await warehouse.commitSlices('run-1', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-05', day('2026-01-01'), { cursor: { mode: 'advance', date: '2026-01-05' } }),
    ]);
    expect(await cursorOf()).toBe('2026-01-05');
    await warehouse.commitSlices('run-2', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-02', '2026-01-03', day('2026-01-02'), { cursor: { mode: 'advance', date: '2026-01-03' } }),
    ]);
    const [cursor] = await warehouse.readCursors(DEVICES);
    expect(cursor).toMatchObject({ cursorDate: '2026-01-05', runId: 'run-1', stream: DEVICES, scopeId: VENUE_A });
    expect(cursor.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('extend moves only when the window touches the cursor (or the baseline)', async () => {
    const extend = (from: string, to: string) =>
      seriesSlice(VENUE_A, DEVICES, from, to, day(from), { cursor: { mode: 'extend', date: to, baseline: '2025-12-31' } });
    // A hole after the baseline: no cursor yet.
    await warehouse.commitSlices('run-1', [extend('2026-02-01', '2026-02-28')]);
    expect(await cursorOf()).toBeUndefined();
    // The window right after the baseline: extends.
    await warehouse.commitSlices('run-1', [extend('2026-01-01', '2026-01-31')]);
    expect(await cursorOf()).toBe('2026-01-31');
    // Out of order within one group: sorted by window, both extend.
    await warehouse.commitSlices('run-2', [extend('2026-03-01', '2026-03-31'), extend('2026-02-01', '2026-02-28')]);
    expect(await cursorOf()).toBe('2026-03-31');
    // A window behind the cursor never moves it back.
    await warehouse.commitSlices('run-3', [extend('2026-01-01', '2026-01-31')]);
    expect(await cursorOf()).toBe('2026-03-31');
  });

  it('moveCursor applies the rules of CursorMove', () => {
    expect(moveCursor(undefined, [{ stream: 's', scopeId: 'x', windowFrom: '2026-01-01', move: { mode: 'advance', date: '2026-01-03' } }])).toBe('2026-01-03');
    expect(moveCursor('2026-01-05', [{ stream: 's', scopeId: 'x', windowFrom: '2026-01-01', move: { mode: 'advance', date: '2026-01-03' } }])).toBe(
      '2026-01-05',
    );
    const extend = (windowFrom: string, date: string) => ({
      stream: 's',
      scopeId: 'x',
      windowFrom,
      move: { mode: 'extend' as const, date, baseline: '2025-12-31' },
    });
    expect(moveCursor('2026-01-10', [extend('2026-01-11', '2026-01-20')])).toBe('2026-01-20');
    expect(moveCursor('2026-01-10', [extend('2026-01-12', '2026-01-20')])).toBe('2026-01-10');
    expect(moveCursor(undefined, [extend('2026-01-01', '2026-01-20')])).toBe('2026-01-20');
  });

  it('moves with its data only: a refused group moves no cursor and marks no backfill slice', async () => {
    await expect(
      warehouse.commitSlices('run-1', [
        seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', day('2026-01-01'), {
          cursor: { mode: 'advance', date: '2026-01-01' },
          backfill: { backfillId: 'bf-1', sliceKey: 'k1' },
        }),
        seriesSlice(VENUE_B, DEVICES, '2026-01-01', '2026-01-01', [
          ['detected', 'day', '2026-01-01T00:00:00Z', 1],
          ['detected', 'day', '2026-01-01T00:00:00Z', 2],
        ]),
      ]),
    ).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_INVALID_BATCH' });
    expect(await warehouse.readCursors()).toEqual([]);
    expect(await warehouse.query('SELECT * FROM backfill_slices')).toEqual([]);
  });
});

describe('backfill progress', () => {
  it('finds the same backfill again, marks slices done with their data, resumes and finishes', async () => {
    const params = { from: '2026-01-01', to: '2026-01-02', streams: [DEVICES], venues: [VENUE_A] };
    const keys = ['2026-01-01', '2026-01-02'].map((d) => backfillSliceKey(DEVICES, VENUE_A, d, d));
    const first = await warehouse.openBackfill('backfill', params, {
      slices: keys.map((sliceKey, i) => ({ sliceKey, stream: DEVICES, scopeId: VENUE_A, windowFrom: `2026-01-0${i + 1}`, windowTo: `2026-01-0${i + 1}` })),
    });
    expect(first).toMatchObject({ created: true, finished: false });
    expect(first.backfillId).toMatch(/^bf-[0-9a-f]{20}$/);

    const result = await warehouse.commitSlices('run-1', [
      seriesSlice(VENUE_A, DEVICES, '2026-01-01', '2026-01-01', day('2026-01-01'), { backfill: { backfillId: first.backfillId, sliceKey: keys[0] } }),
    ]);
    expect(result.rowsWritten).toBe(1);
    const slices = await warehouse.query(
      `SELECT slice_key, status, rows_written::INTEGER AS rows_written, done_at IS NOT NULL AS has_done_at, window_from::VARCHAR AS window_from
       FROM backfill_slices ORDER BY slice_key`,
    );
    expect(slices).toEqual([
      { slice_key: keys[0], status: 'done', rows_written: 1, has_done_at: true, window_from: '2026-01-01' },
      { slice_key: keys[1], status: 'pending', rows_written: null, has_done_at: false, window_from: '2026-01-02' },
    ]);

    // Same command, parameters in another key order: the same backfill, resumed.
    const resumed = await warehouse.openBackfill('backfill', { venues: [VENUE_A], streams: [DEVICES], to: '2026-01-02', from: '2026-01-01' });
    expect(resumed).toMatchObject({ backfillId: first.backfillId, created: false, finished: false });
    expect(resumed.doneSliceKeys.size).toBe(1);
    expect(resumed.doneSliceKeys.has(keys[0])).toBe(true);
    expect(resumed.doneSliceKeys.has(keys[1])).toBe(false);
    const done = await warehouse.backfillDoneSlices(first.backfillId);
    expect([done.size, done.has(keys[0]), done.has(keys[1])]).toEqual([1, true, false]);

    await warehouse.finishBackfill(first.backfillId);
    expect(await warehouse.openBackfill('backfill', params)).toMatchObject({ finished: true });
    await warehouse.resetBackfill(first.backfillId);
    const restarted = await warehouse.openBackfill('backfill', params);
    expect([restarted.finished, restarted.doneSliceKeys.size, restarted.doneSliceKeys.has(keys[0])]).toEqual([false, 0, false]);
  });
});

describe('a resumed backfill with more done slices than one chunk of the warehouse', () => {
  it('reads every done slice back, and none of the others', async () => {
    const dayOf = (i: number) => new Date(Date.UTC(2021, 0, 1 + i)).toISOString().slice(0, 10);
    const planned = [VENUE_A, VENUE_B].flatMap((venue) =>
      Array.from({ length: 1_800 }, (_, i) => ({
        sliceKey: backfillSliceKey(DEVICES, venue, dayOf(i), dayOf(i)),
        stream: DEVICES,
        scopeId: venue,
        windowFrom: dayOf(i),
        windowTo: dayOf(i),
      })),
    );
    const params = { from: dayOf(0), to: dayOf(1_799), streams: [DEVICES], venues: [VENUE_A, VENUE_B] };
    const { backfillId } = await warehouse.openBackfill('backfill', params, { slices: planned });
    // Two in three done: 2,400 keys, more than the 2,048 rows of one result chunk.
    const done = planned.filter((_, i) => i % 3 !== 0);
    await warehouse.commitSlices(
      'run-1',
      done.map((slice) =>
        seriesSlice(slice.scopeId, DEVICES, slice.windowFrom, slice.windowTo, day(slice.windowFrom), { backfill: { backfillId, sliceKey: slice.sliceKey } }),
      ),
    );
    const resumed = await warehouse.openBackfill('backfill', params);
    expect(resumed.doneSliceKeys.size).toBe(done.length);
    const wrong = planned.filter((slice, i) => resumed.doneSliceKeys.has(slice.sliceKey) !== (i % 3 !== 0));
    expect(wrong).toEqual([]);
  });
});

describe('runs and errors', () => {
  it('start and finish a run with totals; detail keeps the pid', async () => {
    const runId = await warehouse.startRun('nightly-sync', { streams: [DEVICES] });
    expect(runId).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{6}$/);
    expect((await warehouse.readRuns())[0]).toMatchObject({ runId, status: 'running', finishedAt: null, detail: { pid: process.pid, streams: [DEVICES] } });
    await warehouse.finishRun(runId, { status: 'partial', requests: 10, retries: 2, rowsWritten: 500, errors: 1, detail: { note: 'x' } });
    const [run] = await warehouse.readRuns();
    expect(run).toMatchObject({ status: 'partial', requests: 10, retries: 2, rowsWritten: 500, errors: 1, detail: { pid: process.pid, note: 'x' } });
    expect(run.finishedAt).not.toBeNull();
  });

  it('run ids sort by start time', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await warehouse.startRun('sync'));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('marks runs of dead processes failed, not its own', async () => {
    const mine = await warehouse.startRun('sync');
    await warehouse.transaction((s) =>
      s.run(
        `INSERT INTO sync_runs (run_id, job, started_at, status, detail) VALUES ('20000101T000000000Z-dead00', 'sync', now(), 'running', '{"pid": 999999}')`,
      ),
    );
    expect(await warehouse.markAbandonedRuns()).toEqual(['20000101T000000000Z-dead00']);
    const runs = await warehouse.readRuns();
    expect(runs.find((r) => r.runId === mine)?.status).toBe('running');
    const dead = runs.find((r) => r.runId.endsWith('dead00'));
    expect(dead).toMatchObject({ status: 'failed', detail: { pid: 999999, abandoned: expect.stringMatching(/ended without finishing/) } });
  });

  it('remembers the rate limit the latest finished run against the same API recorded, and nothing else', async () => {
    const api = (url: string, rateLimitPerSecond: unknown) => ({ api: { url, rateLimitPerSecond } });
    const finished = async (detail: Record<string, unknown>) => {
      const runId = await warehouse.startRun('sync');
      await warehouse.finishRun(runId, { status: 'succeeded', detail });
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    const URL_A = 'https://api.example.com/v1';
    expect(await warehouse.rememberedRateLimit(URL_A)).toBeUndefined();
    await finished(api(URL_A, 9.95));
    await finished(api('https://other.example.com/v1', 50));
    expect(await warehouse.rememberedRateLimit(URL_A)).toBe(9.95);
    // A run still going has not found its limit yet.
    await warehouse.startRun('sync');
    expect(await warehouse.rememberedRateLimit(URL_A)).toBe(9.95);
    // The latest run found none: nothing is remembered (an older limit may be stale).
    await finished(api(URL_A, null));
    expect(await warehouse.rememberedRateLimit(URL_A)).toBeUndefined();
    // A hand-edited detail is no rate to pace at.
    for (const nonsense of ['fast', -3, 0, { per: 10 }]) {
      await finished(api(URL_A, nonsense));
      expect(await warehouse.rememberedRateLimit(URL_A)).toBeUndefined();
    }
    await finished(api(URL_A, 20.5));
    expect(await warehouse.rememberedRateLimit(URL_A)).toBe(20.5);
  });

  it('records failed slices verbatim', async () => {
    await warehouse.recordSyncErrors('run-1', [
      { stream: DEVICES, scopeId: VENUE_A, windowFrom: '2026-01-01', windowTo: '2026-01-31', errorCode: 'VENUE_API_TIMEOUT', message: 'timed out after 30 s' },
      { stream: 'accounts', scopeId: 'accounts', errorCode: 'VENUE_API_AUTH', message: 'refused', at: new Date('2026-02-01T00:00:00Z') },
    ]);
    const errors = await warehouse.readSyncErrors('run-1');
    expect(errors).toHaveLength(2);
    expect(errors.find((e) => e.stream === 'accounts')).toEqual({
      runId: 'run-1',
      stream: 'accounts',
      scopeId: 'accounts',
      windowFrom: null,
      windowTo: null,
      errorCode: 'VENUE_API_AUTH',
      message: 'refused',
      at: '2026-02-01T00:00:00.000Z',
    });
  });
});
