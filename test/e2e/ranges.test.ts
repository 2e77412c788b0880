/**
 * The API answers a one-day history range with hourly points. Whatever the settings (a one-day
 * lookback run twice a day, one-day backfill windows, a one-day backfill), the warehouse must
 * hold daily points only and a repeated run must change nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  describeRun,
  diffMaps,
  NO_DIFF,
  queryRows,
  startFixture,
  summaryNumber,
  todayUtc,
  WRITTEN_COLUMNS,
  type Fixture,
} from './harness.js';
import { expectedSeries, storedSeries } from './truth.js';

const STREAMS = ['venue-devices-history', 'rating-history'];
let fx: Fixture;
const today = todayUtc();

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 1, seed: 4 }, config: { sync: { startDate: addDays(today, -5), lookbackDays: 1, streams: STREAMS } } });
});
afterAll(async () => {
  await fx?.close();
});

const granularities = () => queryRows(fx.warehousePath, `SELECT DISTINCT granularity FROM series_points`);

it('a one-day lookback run twice keeps daily points and changes nothing', async () => {
  const first = await fx.cli(['sync']);
  expect(first.code, describeRun(first)).toBe(0);
  const before = await checksums(fx.warehousePath, WRITTEN_COLUMNS);
  const second = await fx.cli(['sync']);
  expect(second.code, describeRun(second)).toBe(0);
  expect(summaryNumber(second.stdout, /([\d,]+) written/)).toBe(0);
  expect(await checksums(fx.warehousePath, WRITTEN_COLUMNS)).toEqual(before);
  expect(await granularities()).toEqual([{ granularity: 'day' }]);
});

it('one-day backfill windows and a one-day backfill load daily points', async () => {
  const windows = await fx.cli(['backfill', '--from', addDays(today, -12), '--to', addDays(today, -8), '--window-days', '1']);
  expect(windows.code, describeRun(windows)).toBe(0);
  const single = await fx.cli(['backfill', '--from', addDays(today, -20), '--to', addDays(today, -20)]);
  expect(single.code, describeRun(single)).toBe(0);
  expect(await granularities()).toEqual([{ granularity: 'day' }]);
  for (const [from, to] of [
    [addDays(today, -12), addDays(today, -8)],
    [addDays(today, -20), addDays(today, -20)],
  ] as const) {
    const range = { venues: fx.venues, streams: STREAMS, from, to };
    const truth = new Map([...expectedSeries(fx.sim, { ...range, from: addDays(from, -1) })].filter(([key]) => key.split('|')[4]!.slice(0, 10) >= from));
    expect(diffMaps(await storedSeries(fx.warehousePath, range), truth)).toEqual(NO_DIFF);
  }
});

it('runs that reach today load it but keep the cursor at yesterday (today is not complete)', async () => {
  const yesterday = addDays(today, -1);
  const sync = await fx.cli(['sync', '--until', today]);
  expect(sync.code, describeRun(sync)).toBe(0);
  const backfill = await fx.cli(['backfill', '--from', addDays(today, -5), '--to', today, '--streams', 'venue-devices-summary']);
  expect(backfill.code, describeRun(backfill)).toBe(0);
  const [loaded] = await queryRows(
    fx.warehousePath,
    `SELECT strftime(max(ts), '%Y-%m-%d') AS series, (SELECT strftime(max(period_start), '%Y-%m-%d') FROM summary_values) AS summaries FROM series_points`,
  );
  expect(loaded).toEqual({ series: today, summaries: today });
  const cursors = await queryRows(fx.warehousePath, `SELECT stream, strftime(cursor_date, '%Y-%m-%d') AS d FROM sync_cursors ORDER BY stream`);
  expect(cursors).toEqual([...STREAMS, 'venue-devices-summary'].sort().map((stream) => ({ stream, d: yesterday })));
});
