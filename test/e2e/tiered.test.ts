/**
 * The default summary grain end to end: a backfill reaching back before the day horizon loads
 * day summaries from the first day of the month holding the horizon's first day, whole calendar
 * months before it, nothing twice; its dry run prices every grain; a monthly total over the
 * whole range (the reports' summary_periods) counts every day exactly once; the nightly sync
 * after it stays in days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, eachDay, queryRows, startFixture, summaryNumber, todayUtc, type Fixture } from './harness.js';

const STREAMS = ['venue-users-summary', 'rating-summary'] as const;
const RANGE_DAYS = 200;
/** sync.dayHorizonDays by default. */
const HORIZON = 92;

let fx: Fixture;
let from: string;
let yesterday: string;
/** First day of the day tier: the first of the month holding yesterday - 91 days. */
let tierStart: string;

const monthStartOf = (day: string): string => `${day.slice(0, 7)}-01`;
const monthEndOf = (day: string): string => addDays(`${addDays(monthStartOf(day), 31).slice(0, 7)}-01`, -1);

beforeAll(async () => {
  assertBuilt();
  const today = todayUtc();
  yesterday = addDays(today, -1);
  from = addDays(yesterday, 1 - RANGE_DAYS);
  tierStart = monthStartOf(addDays(yesterday, 1 - HORIZON));
  fx = await startFixture({ sim: { seed: 15, venues: 2, days: RANGE_DAYS + 40 }, config: { sync: { startDate: from, streams: [...STREAMS] } } });
});
afterAll(async () => {
  await fx?.close();
});

/** Whole months from the month of `from` to the month before the day tier. */
function monthTier(): { from: string; to: string }[] {
  const months: { from: string; to: string }[] = [];
  for (let start = monthStartOf(from); start < tierStart; start = addDays(monthEndOf(start), 1)) months.push({ from: start, to: monthEndOf(start) });
  return months;
}

/** The simulator's value of an additive metric over [first, last]. */
function truthOf(venue: string, stream: (typeof STREAMS)[number], metric: string, first: string, last: string): number {
  const value = fx.sim.truth.summary(venue, stream, first, last)[metric];
  if (typeof value !== 'number') throw new Error(`no number for ${metric}`);
  return value;
}

describe('tiered summaries (the default summaryGrain)', () => {
  it('--dry-run prices each stream by grain, and what day for everything would cost', async () => {
    const dry = await fx.cli(['backfill', '--from', from, '--to', yesterday, '--dry-run']);
    expect(dry.code, describeRun(dry)).toBe(0);
    const days = eachDay(tierStart, yesterday).length;
    const months = monthTier().length;
    for (const stream of STREAMS) {
      expect(dry.stdout).toMatch(new RegExp(`${stream}\\s+month\\s+${2 * months} slices\\s+${2 * months} requests`));
      expect(dry.stdout).toMatch(new RegExp(`${stream}\\s+day\\s+\\d+ slices\\s+${2 * days} requests`));
    }
    expect(summaryNumber(dry.stdout, /at least ([\d,]+) requests/)).toBe(2 * 2 * (months + days));
    expect(summaryNumber(dry.stdout, /\* summaryGrain tiered .* ([\d,]+) requests/)).toBe(2 * 2 * (months + days));
    expect(summaryNumber(dry.stdout, /summaryGrain day for everything\s+([\d,]+) requests/)).toBe(2 * 2 * RANGE_DAYS);
  });

  it('loads day rows for the horizon, whole months before it, and no period in both', async () => {
    const run = await fx.cli(['backfill', '--from', from, '--to', yesterday]);
    expect(run.code, describeRun(run)).toBe(0);
    const rows = await queryRows(
      fx.warehousePath,
      `SELECT venue_id::VARCHAR AS v, stream, strftime(period_start, '%Y-%m-%d') AS s, strftime(period_end, '%Y-%m-%d') AS e,
              max(value) FILTER (WHERE metric IN ('logins', 'rates_count')) AS total
       FROM summary_values GROUP BY ALL ORDER BY v, stream, s`,
    );
    for (const venue of fx.venues) {
      for (const stream of STREAMS) {
        const own = rows.filter((r) => r.v === venue && r.stream === stream);
        const days = own.filter((r) => r.s === r.e);
        const months = own.filter((r) => r.s !== r.e);
        // Every day of the horizon's month and after it by the day, the last 92 days included.
        expect(days.map((r) => r.s)).toEqual(eachDay(tierStart, yesterday));
        expect(String(days[0]!.s) <= addDays(yesterday, 1 - HORIZON)).toBe(true);
        // Whole calendar months before it, none reaching into the day tier.
        expect(months.map((r) => ({ from: r.s, to: r.e }))).toEqual(monthTier());
        const metric = stream === 'venue-users-summary' ? 'logins' : 'rates_count';
        for (const r of [...days, ...months]) expect(r.total).toBe(truthOf(venue, stream, metric, String(r.s), String(r.e)));
      }
    }
  });

  it('a monthly total over the whole range counts every day exactly once', async () => {
    const totals = await queryRows(
      fx.warehousePath,
      `SELECT venue_id::VARCHAR AS v, strftime(period_start, '%Y-%m') AS m, sum(value) AS logins
       FROM summary_periods('venue-users-summary', NULL, NULL, NULL) WHERE metric = 'logins' GROUP BY ALL ORDER BY v, m`,
    );
    const ratings = await fx.cli(['report', 'rating-distribution', '--format', 'json']);
    expect(ratings.code, describeRun(ratings)).toBe(0);
    const rated = JSON.parse(ratings.stdout) as { venue_id: string; month: string; rates: number }[];
    for (const venue of fx.venues) {
      const expected = [...monthTier(), { from: tierStart, to: yesterday }]
        .flatMap((range) => eachDay(range.from, range.to))
        .reduce((byMonth, day) => byMonth.set(day.slice(0, 7), [...(byMonth.get(day.slice(0, 7)) ?? []), day]), new Map<string, string[]>());
      // Day by day from the truth: the stored months and days must add up to the same totals.
      const perMonth = (stream: (typeof STREAMS)[number], metric: string) =>
        [...expected].map(([month, days]) => ({ month, total: days.reduce((n, day) => n + truthOf(venue, stream, metric, day, day), 0) }));
      expect(totals.filter((r) => r.v === venue).map((r) => ({ month: r.m, total: r.logins }))).toEqual(perMonth('venue-users-summary', 'logins'));
      expect(rated.filter((r) => r.venue_id === venue).map((r) => ({ month: r.month, total: r.rates }))).toEqual(perMonth('rating-summary', 'rates_count'));
    }
  });

  it('the nightly sync after it stays in days and leaves the months alone', async () => {
    const before = await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM summary_values WHERE period_end > period_start`);
    fx.sim.clearRequests();
    const sync = await fx.cli(['sync']);
    expect(sync.code, describeRun(sync)).toBe(0);
    const summaryRequests = fx.sim.requests.filter((r) => r.path.includes('summar'));
    expect(summaryRequests.length).toBeGreaterThan(0);
    // Day periods only: from and to the same day.
    for (const r of summaryRequests) {
      const query = new URLSearchParams(r.query);
      expect(query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(query.get('to')).toBe(query.get('from'));
    }
    expect(await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM summary_values WHERE period_end > period_start`)).toEqual(before);
  });
});
