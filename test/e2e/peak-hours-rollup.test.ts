/**
 * The peak-hours rollup through the CLI (sql/migrations/009_peak_hours_rollup.sql): equal to its
 * definition over series_points after a sync with the hour grain, a sync that takes in late
 * revisions, a `backfill --grain hour` of older days and a `reset --rows`; and `report
 * peak-hours` through it prints what the text over every point (bench/big-warehouse-baseline/)
 * returns on the same file, in UTC and in a zone with daylight saving.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatJson } from '../../src/readside/format-json.js';
import { loadNamedSql, openWarehouseSource, runNamedSql, type SqlParams } from '../../src/readside/index.js';
import { EXACT, ROLLUP_DIFFERENCES } from '../peak-hours-rollup.js';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';
import { SERIES } from './truth.js';

const BEFORE = fileURLToPath(new URL('../../bench/big-warehouse-baseline/peak-hours.sql', import.meta.url));
let fx: Fixture;
let today: string;

beforeAll(async () => {
  assertBuilt();
  today = todayUtc();
  fx = await startFixture({
    sim: { seed: 37, venues: 2, days: 60, reviseRecentDays: 2 },
    config: { sync: { startDate: addDays(today, -5), lookbackDays: 2, windowDays: 7, streams: [...SERIES], historyGrain: ['day', 'hour'] } },
  });
});
afterAll(async () => {
  await fx?.close();
});

async function differences(): Promise<Record<string, unknown>> {
  const [row] = await queryRows(fx.warehousePath, ROLLUP_DIFFERENCES);
  return row!;
}

/** The report as the CLI prints it, and the earlier text over every point on the same file. */
async function bothReports(params: SqlParams, args: readonly string[]): Promise<[unknown, unknown]> {
  const run = await fx.cli(['report', 'peak-hours', '--format', 'json', ...args]);
  expect(run.code, describeRun(run)).toBe(0);
  const current = loadNamedSql('reports', 'peak-hours');
  const before = { ...current, text: readFileSync(BEFORE, 'utf8') };
  const source = await openWarehouseSource(fx.warehousePath);
  try {
    return [JSON.parse(run.stdout), JSON.parse(formatJson(await runNamedSql(source.connection, before, params)))];
  } finally {
    await source.close();
  }
}

describe('the peak-hours rollup through the CLI', () => {
  it('equals its definition after a sync, late revisions, a backfill --grain hour and a reset', async () => {
    expect((await fx.cli(['sync'])).code).toBe(0);
    const synced = await differences();
    expect(synced).toMatchObject(EXACT);
    expect(synced.totals).toBeGreaterThan(0);

    fx.sim.revise();
    const [before] = await queryRows(fx.warehousePath, 'SELECT sum(total) AS t FROM peak_hour_totals');
    expect((await fx.cli(['sync'])).code).toBe(0);
    const [after] = await queryRows(fx.warehousePath, 'SELECT sum(total) AS t FROM peak_hour_totals');
    expect(after!.t).not.toEqual(before!.t);
    expect(await differences()).toMatchObject(EXACT);

    const backfill = await fx.cli(['backfill', '--from', addDays(today, -40), '--to', addDays(today, -20), '--grain', 'hour']);
    expect(backfill.code, describeRun(backfill)).toBe(0);
    const backfilled = await differences();
    expect(backfilled).toMatchObject(EXACT);
    expect(backfilled.totals).toBeGreaterThan(synced.totals as number);

    const reset = await fx.cli(['reset', '--streams', 'venue-devices-history', '--venues', fx.venues[0]!, '--from', addDays(today, -30), '--rows', '--yes']);
    expect(reset.code, describeRun(reset)).toBe(0);
    expect(await differences()).toMatchObject(EXACT);
  });

  it('report peak-hours prints what the text over every point returns', async () => {
    const from = addDays(today, -35);
    const to = addDays(today, -1);
    for (const [params, args] of [
      [{}, []],
      [{ from, to }, ['--from', from, '--to', to]],
      [{ from, to, tz: 'America/New_York' }, ['--from', from, '--to', to, '--tz', 'America/New_York']],
      [{ tz: 'Europe/Berlin' }, ['--tz', 'Europe/Berlin']],
    ] as const) {
      const [printed, expected] = await bothReports(params, args);
      expect(printed).toEqual(expected);
      expect((printed as unknown[]).length).toBeGreaterThan(0);
    }
  });
});
