/**
 * One grain rule, end to end: a warehouse holding both grains of the same days (a sync by the day,
 * then `backfill --grain hour` over some of them) and both summary tiers (months, then days within
 * the horizon), loaded by the real CLI from the simulator. Every report's totals agree with each
 * other and with the simulator's truth, and so do the dashboard's ranking bars and daily charts
 * (its page data, from src/dashboard/collect.ts). After each load — sync, backfill by the hour,
 * late revisions, a replaced window, a reset — the series_daily rollup equals its definition
 * (sql/rollups/series-daily-of.sql) run over every point series_points holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageData } from '../../src/dashboard/collect.js';
import { openWarehouseSource } from '../../src/readside/index.js';
import { sql } from '../../src/warehouse/sql-files.js';
import { addDays, assertBuilt, describeRun, eachDay, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';
import { SERIES } from './truth.js';

const DAYS = 40;
/** Day summaries for the last 10 days (from the first of that month), months before. */
const HORIZON = 10;
const STREAMS = [...SERIES, 'venue-users-summary', 'rating-summary'];

let fx: Fixture;
let from: string;
let yesterday: string;
/** The days backfilled by the hour too: both grains are held there. */
let hourFrom: string;
let hourTo: string;

beforeAll(async () => {
  assertBuilt();
  yesterday = addDays(todayUtc(), -1);
  from = addDays(yesterday, 1 - DAYS);
  hourFrom = addDays(yesterday, -20);
  hourTo = addDays(yesterday, -5);
  fx = await startFixture({
    sim: { seed: 37, venues: 3, days: DAYS + 20, reviseRecentDays: 2 },
    config: { sync: { startDate: from, lookbackDays: 2, windowDays: 7, streams: [...SERIES], historyGrain: ['day'], dayHorizonDays: HORIZON } },
  });
});
afterAll(async () => {
  await fx?.close();
});

/** Rows of series_daily that differ from its definition over every point (both directions). */
async function rollupDrift(): Promise<unknown[]> {
  const definition = sql('rollups/series-daily-of.sql');
  return queryRows(
    fx.warehousePath,
    `(SELECT 'table' AS side, * FROM series_daily EXCEPT ALL SELECT 'table', * FROM (${definition}))
     UNION ALL
     (SELECT 'definition', * FROM (${definition}) EXCEPT ALL SELECT 'definition', * FROM series_daily)`,
  );
}

async function rollupRows(): Promise<number> {
  const [row] = await queryRows(fx.warehousePath, 'SELECT count(*)::INTEGER AS n FROM series_daily');
  return Number(row!.n);
}

async function report(name: string, extra: readonly string[] = []): Promise<Record<string, unknown>[]> {
  // From the first of from's month: the month tier holds whole calendar months, picked by their first day.
  const run = await fx.cli(['report', name, '--from', `${from.slice(0, 7)}-01`, '--to', yesterday, '--format', 'json', ...extra]);
  expect(run.code, describeRun(run)).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>[];
}

/** Per venue, the sum of `column` over the rows (NULL rows make it null: unknown). */
function perVenue(rows: readonly Record<string, unknown>[], column: string): Map<string, number | null> {
  const sums = new Map<string, number | null>();
  for (const row of rows) {
    const venue = String(row.venue_id);
    const value = row[column] as number | null;
    const before = sums.has(venue) ? sums.get(venue)! : 0;
    sums.set(venue, before === null || value === null ? null : before + value);
  }
  return sums;
}

/** The simulator's total of a series metric over the range, per venue: its daily points added up. */
function seriesTruth(stream: (typeof SERIES)[number], metric: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const venue of fx.venues) {
    const points = fx.sim.truth.series(venue, stream, from, yesterday).points[metric] ?? [];
    totals.set(
      venue,
      points.reduce((sum, [, value]) => sum + (value ?? Number.NaN), 0),
    );
  }
  return totals;
}

function summaryTruth(stream: 'venue-users-summary' | 'rating-summary', metric: string): Map<string, number> {
  return new Map(fx.venues.map((venue) => [venue, fx.sim.truth.summary(venue, stream, `${from.slice(0, 7)}-01`, yesterday)[metric] as number]));
}

describe('both grains of the same days and both summary tiers', () => {
  it('the rollup equals its definition after a sync by the day', async () => {
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    // The summaries by a backfill: months before the day horizon, days within it (sync.summaryGrain 'tiered').
    fx.writeConfig({ sync: { streams: STREAMS } });
    const summaries = await fx.cli(['backfill', '--from', from, '--to', yesterday, '--streams', 'venue-users-summary,rating-summary']);
    expect(summaries.code, describeRun(summaries)).toBe(0);
    expect(await rollupRows()).toBeGreaterThan(0);
    expect(await rollupDrift()).toEqual([]);
  });

  it('and after a backfill by the hour over days already held by the day', async () => {
    fx.writeConfig({ sync: { streams: STREAMS, historyGrain: ['day', 'hour'] } });
    const run = await fx.cli(['backfill', '--from', hourFrom, '--to', hourTo, '--grain', 'hour']);
    expect(run.code, describeRun(run)).toBe(0);
    const [both] = await queryRows(fx.warehousePath, 'SELECT count(*)::INTEGER AS n FROM series_daily WHERE day_points > 0 AND hour_points > 0');
    expect(Number(both!.n)).toBe(fx.venues.length * eachDay(hourFrom, hourTo).length * 9);
    expect(await rollupDrift()).toEqual([]);
  });

  it('and after late revisions loaded by the next sync (both grains)', async () => {
    fx.sim.revise();
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(await rollupDrift()).toEqual([]);
  });

  it('every report agrees with the others and with the simulator', async () => {
    const ranking = await report('venue-ranking');
    const devices = await report('daily-devices');
    const logins = await report('daily-logins');
    const embeds = await report('remarketing-trend');
    const users = await report('users-summary');
    const ratings = await report('rating-distribution');
    expect(ranking).toHaveLength(fx.venues.length);
    const rank = (column: string) => new Map(ranking.map((r) => [String(r.venue_id), r[column] as number | null]));

    expect(rank('detected')).toEqual(seriesTruth('venue-devices-history', 'detected'));
    expect(perVenue(devices, 'detected')).toEqual(rank('detected'));
    expect(rank('authenticated')).toEqual(seriesTruth('venue-devices-history', 'authenticated'));
    expect(perVenue(devices, 'authenticated')).toEqual(rank('authenticated'));
    expect(rank('logins')).toEqual(seriesTruth('venue-users-history', 'logins'));
    expect(perVenue(logins, 'logins')).toEqual(rank('logins'));
    expect(rank('embeds')).toEqual(seriesTruth('venue-remarketing-history', 'embeds'));
    expect(perVenue(embeds, 'embeds')).toEqual(rank('embeds'));

    // Summaries: months before the horizon, days within it, every day once.
    expect(users.some((r) => r.period_start !== r.period_end)).toBe(true);
    expect(users.some((r) => r.period_start === r.period_end)).toBe(true);
    expect(perVenue(users, 'logins')).toEqual(summaryTruth('venue-users-summary', 'logins'));
    // Over the days held by the day, the summaries' logins are the series' logins.
    const dayTier = users.filter((r) => r.period_start === r.period_end);
    const tierDays = new Set(dayTier.map((r) => String(r.period_start)));
    expect(perVenue(dayTier, 'logins')).toEqual(
      perVenue(
        logins.filter((r) => tierDays.has(String(r.day))),
        'logins',
      ),
    );
    expect(perVenue(ratings, 'rates')).toEqual(summaryTruth('rating-summary', 'rates_count'));

    // The days held by both grains show the day point (unique counts too), the others as loaded.
    const both = devices.filter((r) => String(r.day) >= hourFrom && String(r.day) <= hourTo);
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((r) => r.loaded_grain === 'day' && r.unique_detected !== null)).toBe(true);
  });

  it('the dashboard draws the same totals: ranking bars, daily charts', async () => {
    const source = await openWarehouseSource(fx.warehousePath);
    try {
      const page = await collectPageData(source.connection, {
        from,
        to: yesterday,
        initialDays: 0,
        tz: 'UTC',
        topN: 10,
        staleAfterDays: 2,
        title: 't',
        now: new Date(),
      });
      const detected = seriesTruth('venue-devices-history', 'detected');
      const logins = seriesTruth('venue-users-history', 'logins');
      for (const [v, venue] of page.venues.entries()) {
        expect(venue.detected).toBe(detected.get(venue.id));
        expect(venue.logins).toBe(logins.get(venue.id));
        const day = (metric: 'detected' | 'logins' | 'embeds') => page.daily[metric][v]!.reduce<number>((sum, x) => sum + (x ?? Number.NaN), 0);
        expect(day('detected')).toBe(venue.detected);
        expect(day('logins')).toBe(venue.logins);
        expect(day('embeds')).toBe(venue.embeds);
      }
      // The tiles add the daily charts of every venue (src/dashboard/assets/dashboard.js).
      const tile = (metric: 'detected' | 'logins') => page.daily[metric].flat().reduce<number>((sum, x) => sum + (x ?? Number.NaN), 0);
      expect(tile('detected')).toBe([...detected.values()].reduce((sum, x) => sum + x, 0));
      expect(tile('logins')).toBe([...logins.values()].reduce((sum, x) => sum + x, 0));
    } finally {
      await source.close();
    }
  });

  it('the rollup equals its definition after a replaced window and a reset', async () => {
    // Reloading the hours, then the days, of a few days replaces their windows (the simulator revised them since).
    fx.sim.revise();
    const again = await fx.cli(['backfill', '--from', addDays(yesterday, -3), '--to', yesterday, '--grain', 'hour', '--force']);
    expect(again.code, describeRun(again)).toBe(0);
    expect(await rollupDrift()).toEqual([]);
    const days = await fx.cli(['backfill', '--from', addDays(yesterday, -3), '--to', yesterday, '--grain', 'day', '--force']);
    expect(days.code, describeRun(days)).toBe(0);
    expect(await rollupDrift()).toEqual([]);

    const reset = await fx.cli(['reset', '--streams', 'venue-devices-history', '--venues', fx.venues[0]!, '--from', hourTo, '--rows', '--yes']);
    expect(reset.code, describeRun(reset)).toBe(0);
    const [left] = await queryRows(
      fx.warehousePath,
      `SELECT count(*)::INTEGER AS n FROM series_daily WHERE stream = 'venue-devices-history' AND venue_id = '${fx.venues[0]}' AND day >= DATE '${hourTo}'`,
    );
    expect(Number(left!.n)).toBe(0);
    expect(await rollupDrift()).toEqual([]);
  });
});
