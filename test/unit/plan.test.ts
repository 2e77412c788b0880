import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { addDays, eachDay, monthEnd, monthStart } from '../../src/calendar/index.js';
import {
  backfillGrainCosts,
  planBackfill,
  planSync,
  plannedRequests,
  requestCount,
  requestsOf,
  requestsWithSummaryGrain,
  splitWindows,
  monthPeriods,
  streamKey,
  summaryGrainSettings,
  type Slice,
} from '../../src/plan/index.js';

const catalogue = buildCatalogue();
const V1 = '00000000-0000-4000-8000-000000000001';
const P1 = '00000000-0000-4000-8000-0000000000aa';
const base = { catalogue, venues: [V1], projects: [P1], windowDays: 31, grains: ['day'] as const };

describe('windows', () => {
  it('splits a range into windows and folds a one-day remainder into the previous one', () => {
    expect(splitWindows('2026-01-01', '2026-01-10', 3)).toEqual([
      { from: '2026-01-01', to: '2026-01-03' },
      { from: '2026-01-04', to: '2026-01-06' },
      { from: '2026-01-07', to: '2026-01-10' },
    ]);
    expect(splitWindows('2026-01-05', '2026-01-05', 31)).toEqual([{ from: '2026-01-05', to: '2026-01-05' }]);
  });

  it('lists calendar months touched, clipped to the end date', () => {
    expect(monthPeriods('2026-01-30', '2026-03-02')).toEqual([
      { from: '2026-01-01', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-02-28' },
      { from: '2026-03-01', to: '2026-03-02' },
    ]);
  });
});

describe('planSync', () => {
  it('starts at startDate without a cursor and at cursor + 1 - lookback with one', () => {
    const cursors = new Map([[`venue-devices-history|${V1}`, '2026-03-10']]);
    const chains = planSync({
      ...base,
      streams: ['venue-devices-history', 'venue-users-history'],
      cursors,
      startDate: '2026-03-01',
      lookbackDays: 3,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    const devices = chains.find((c) => c.stream === 'venue-devices-history')!;
    expect(devices.slices.map((s) => [s.windowFrom, s.windowTo])).toEqual([['2026-03-08', '2026-03-12']]);
    const users = chains.find((c) => c.stream === 'venue-users-history')!;
    expect(users.slices.map((s) => [s.windowFrom, s.windowTo])).toEqual([['2026-03-01', '2026-03-12']]);
  });

  it('plans nothing for a stream whose cursor is at the end date', () => {
    const cursors = new Map([[`venue-devices-history|${V1}`, '2026-03-12']]);
    const chains = planSync({
      ...base,
      streams: ['venue-devices-history'],
      cursors,
      startDate: '2026-03-01',
      lookbackDays: 0,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    expect(chains).toEqual([]);
  });

  it('requests day summaries one day at a time and month summaries from the first of the month', () => {
    const chains = planSync({
      ...base,
      grains: ['day', 'month'],
      streams: ['venue-users-summary'],
      cursors: new Map(),
      startDate: '2026-03-10',
      lookbackDays: 3,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    const slices = chains[0]!.slices;
    expect(slices.map((s) => [s.grain, s.windowFrom, s.windowTo, requestCount(s)])).toEqual([
      ['day', '2026-03-10', '2026-03-12', 3],
      ['month', '2026-03-01', '2026-03-12', 1],
    ]);
  });

  it('gives project roles one slice per project and accounts a single slice', () => {
    const chains = planSync({
      ...base,
      streams: ['project-roles', 'accounts'],
      cursors: new Map(),
      startDate: '2026-03-01',
      lookbackDays: 3,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    expect(chains.map((c) => [c.stream, c.scopeId, c.slices.length])).toEqual([
      ['project-roles', P1, 1],
      ['accounts', '*', 1],
    ]);
  });
});

describe('planBackfill', () => {
  it('covers the range in windows and counts one request per window or summary day', () => {
    const chains = planBackfill({
      ...base,
      streams: ['venue-devices-history', 'venue-devices-summary'],
      from: '2026-01-01',
      to: '2026-03-31',
      today: '2026-04-10',
    });
    const history = chains.find((c) => c.stream === 'venue-devices-history')!;
    expect(history.slices).toHaveLength(3);
    expect(plannedRequests(chains)).toBe(3 + 90);
    const daySlice = chains.find((c) => c.stream === 'venue-devices-summary')!.slices[0]!;
    expect(requestsOf(daySlice)).toHaveLength(requestCount(daySlice));
    expect(requestsOf(daySlice)[0]).toEqual({ from: daySlice.windowFrom, to: daySlice.windowFrom });
  });
});

describe('the hour grain (sync.historyGrain)', () => {
  it('plans a chain per grain for history streams, each from its own cursor, one request per day by the hour', () => {
    const cursors = new Map([
      [`venue-devices-history|${V1}`, '2026-03-10'],
      [`venue-devices-history@hour|${V1}`, '2026-03-05'],
    ]);
    const chains = planSync({
      ...base,
      historyGrains: ['day', 'hour'],
      streams: ['venue-devices-history', 'venue-devices-summary'],
      cursors,
      startDate: '2026-03-01',
      lookbackDays: 3,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    const devices = chains.filter((c) => c.stream === 'venue-devices-history');
    expect(devices.map((c) => c.slices.map((s) => [s.grain ?? 'day', s.windowFrom, s.windowTo]))).toEqual([
      [['day', '2026-03-08', '2026-03-12']],
      [['hour', '2026-03-03', '2026-03-12']],
    ]);
    const hourSlice = devices[1]!.slices[0]!;
    expect(hourSlice.key).toBe(`venue-devices-history|${V1}|2026-03-03|2026-03-12|hour`);
    expect(requestsOf(hourSlice)).toHaveLength(10);
    expect(requestsOf(hourSlice)[0]).toEqual({ from: '2026-03-03', to: '2026-03-03' });
    expect(requestCount(hourSlice)).toBe(10);
    // Summaries have no hours: one chain, unchanged.
    expect(chains.filter((c) => c.stream === 'venue-devices-summary')).toHaveLength(1);
    // A day-only plan keeps the keys it always had.
    const dayOnly = planSync({
      ...base,
      streams: ['venue-devices-history'],
      cursors,
      startDate: '2026-03-01',
      lookbackDays: 3,
      until: '2026-03-12',
      today: '2026-03-13',
    });
    expect(dayOnly.map((c) => c.slices.map((s) => s.key))).toEqual([[`venue-devices-history|${V1}|2026-03-08|2026-03-12|`]]);
  });

  it('a one-day range by the hour is one request for that day; by the day it reaches back a day', () => {
    const chains = planBackfill({
      ...base,
      historyGrains: ['day', 'hour'],
      streams: ['venue-users-history'],
      from: '2026-03-05',
      to: '2026-03-05',
      today: '2026-03-13',
    });
    expect(chains.map((c) => c.slices.map((s) => [s.grain ?? 'day', s.windowFrom, s.windowTo]))).toEqual([
      [['day', '2026-03-04', '2026-03-05']],
      [['hour', '2026-03-05', '2026-03-05']],
    ]);
    expect(plannedRequests(chains)).toBe(2);
  });
});

describe('tiered summaries (sync.summaryGrain tiered)', () => {
  const tiered = { ...base, grains: ['day', 'month'] as const, dayHorizonDays: 92 };

  /** Every day the slices cover, with the grains covering it; month slices must be whole months. */
  function coverage(slices: readonly Slice[]): Map<string, string[]> {
    const days = new Map<string, string[]>();
    for (const s of slices) {
      if (s.grain === 'month') {
        expect([s.windowFrom, s.windowTo]).toEqual([monthStart(s.windowFrom), monthEnd(s.windowFrom)]);
      }
      for (const day of eachDay(s.windowFrom, s.windowTo)) days.set(day, [...(days.get(day) ?? []), s.grain ?? '']);
    }
    return days;
  }

  /** The summary slices of a tiered backfill of one stream, with the day tier's first day and the coverage checked. */
  function backfillSlices(from: string, until: string, dayHorizonDays: number): { slices: readonly Slice[]; firstDay: string } {
    const chains = planBackfill({ ...tiered, dayHorizonDays, streams: ['venue-users-summary'], from, to: until, today: addDays(until, 1) });
    const slices = chains[0]!.slices;
    const days = coverage(slices);
    // Every day from the first month's first day to `until` is covered once, by one grain.
    expect([...days.keys()].sort()).toEqual(eachDay(monthStart(from), until));
    expect([...days.values()].filter((grains) => grains.length !== 1)).toEqual([]);
    const dayTier = [...days].filter(([, grains]) => grains[0] === 'day').map(([day]) => day);
    // The day tier is one run of days up to `until`, and the horizon lies inside it.
    expect(dayTier).toEqual(eachDay(dayTier[0]!, until));
    expect(dayTier[0]! <= addDays(until, 1 - dayHorizonDays)).toBe(true);
    // Months before it, days after: the shared cursor only moves forward.
    expect(slices.map((s) => s.windowTo)).toEqual(slices.map((s) => s.windowTo).sort());
    return { slices, firstDay: dayTier[0]! };
  }

  it('plans day slices for the horizon and whole months before it, no day in both, for a two-year backfill', () => {
    const { slices, firstDay } = backfillSlices('2024-11-23', '2026-11-22', 92);
    // The horizon starts 2026-08-23: its whole month is loaded by the day.
    expect(firstDay).toBe('2026-08-01');
    const months = slices.filter((s) => s.grain === 'month');
    expect(months.map((s) => s.windowFrom)).toHaveLength(21);
    expect([months[0]!.windowFrom, months.at(-1)!.windowTo]).toEqual(['2024-11-01', '2026-07-31']);
    expect(slices.filter((s) => s.grain === 'day').reduce((n, s) => n + requestCount(s), 0)).toBe(114);
  });

  it('puts the boundary at the first of the month holding the horizon first day, when the until is the 1st or the last of a month', () => {
    // until the 1st: a 91-day horizon starts on 2025-12-01 itself, a 92-day one on 2025-11-30;
    // a 1-day horizon is the until alone, a one-day day tier.
    expect(backfillSlices('2025-01-01', '2026-03-01', 91).firstDay).toBe('2025-12-01');
    expect(backfillSlices('2025-01-01', '2026-03-01', 92).firstDay).toBe('2025-11-01');
    const oneDay = backfillSlices('2025-01-01', '2026-03-01', 1);
    expect(oneDay.firstDay).toBe('2026-03-01');
    expect(oneDay.slices.at(-1)).toMatchObject({ grain: 'day', windowFrom: '2026-03-01', windowTo: '2026-03-01' });
    expect(oneDay.slices.at(-2)).toMatchObject({ grain: 'month', windowFrom: '2026-02-01', windowTo: '2026-02-28' });
    // until the last day: the horizon's month is whole either way.
    expect(backfillSlices('2025-01-01', '2026-03-31', 92).firstDay).toBe('2025-12-01');
    expect(backfillSlices('2025-01-01', '2026-03-31', 31).firstDay).toBe('2026-03-01');
    expect(backfillSlices('2025-01-01', '2026-03-31', 32).firstDay).toBe('2026-02-01');
  });

  it('measures the horizon from the last complete day, not from the end of the backfilled range', () => {
    const old = planBackfill({ ...tiered, streams: ['venue-users-summary'], from: '2025-01-01', to: '2025-06-30', today: '2026-11-23' });
    expect(new Set(old[0]!.slices.map((s) => s.grain))).toEqual(new Set(['month']));
    expect(old[0]!.slices).toHaveLength(6);
    const recent = planBackfill({ ...tiered, streams: ['venue-users-summary'], from: '2026-10-01', to: '2026-10-31', today: '2026-11-23' });
    expect(recent[0]!.slices.map((s) => [s.grain, s.windowFrom, s.windowTo])).toEqual([['day', '2026-10-01', '2026-10-31']]);
  });

  it('sync: a first run from a start date two years back is tiered; later runs from the cursor stay in days; histories are unchanged', () => {
    const input = {
      ...tiered,
      streams: ['venue-users-summary', 'venue-users-history'],
      startDate: '2024-11-23',
      lookbackDays: 3,
      until: '2026-11-22',
      today: '2026-11-23',
    };
    const first = planSync({ ...input, cursors: new Map() });
    const summary = first.find((c) => c.stream === 'venue-users-summary')!.slices;
    expect(summary[0]).toMatchObject({ grain: 'month', windowFrom: '2024-11-01', windowTo: '2024-11-30' });
    expect(summary.find((s) => s.grain === 'day')).toMatchObject({ windowFrom: '2026-08-01' });
    expect(first.find((c) => c.stream === 'venue-users-history')!.slices.every((s) => s.grain === undefined)).toBe(true);
    const cursors = new Map([
      [`venue-users-summary|${V1}`, '2026-11-21'],
      [`venue-users-history|${V1}`, '2026-11-21'],
    ]);
    const next = planSync({ ...input, cursors });
    expect(next.find((c) => c.stream === 'venue-users-summary')!.slices.map((s) => [s.grain, s.windowFrom, s.windowTo])).toEqual([
      ['day', '2026-11-19', '2026-11-22'],
    ]);
  });

  it('leaves day, month and both meaning that grain for every period', () => {
    const range = { streams: ['venue-users-summary'], from: '2025-01-01', to: '2026-03-31', today: '2026-04-01' };
    const day = planBackfill({ ...base, ...range })[0]!.slices;
    expect(coverage(day).size).toBe(eachDay('2025-01-01', '2026-03-31').length);
    expect(day.every((s) => s.grain === 'day')).toBe(true);
    const month = planBackfill({ ...base, ...range, grains: ['month'] })[0]!.slices;
    expect(month.map((s) => s.grain)).toEqual(new Array(15).fill('month'));
    const both = planBackfill({ ...base, ...range, grains: ['day', 'month'] })[0]!.slices;
    expect([...coverage(both).values()].every((grains) => grains.length === 2)).toBe(true);
  });

  it('prices a plan per stream and grain exactly as the full plan counts it, and the other settings', () => {
    const venues = [V1, '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
    const input = {
      ...tiered,
      venues,
      historyGrains: ['day', 'hour'] as const,
      streams: ['venue-users-summary', 'venue-devices-history', 'project-roles', 'accounts'],
      from: '2025-11-23',
      to: '2026-11-22',
      today: '2026-11-23',
    };
    const chains = planBackfill(input);
    const expected = new Map<string, { slices: number; requests: number }>();
    for (const chain of chains) {
      for (const slice of chain.slices) {
        const key = `${streamKey(slice.stream, slice.grain)}|${slice.endpoint.kind === 'roles' || slice.endpoint.kind === 'accounts' ? 'snapshot' : (slice.grain ?? 'day')}`;
        const e = expected.get(key) ?? { slices: 0, requests: 0 };
        expected.set(key, { slices: e.slices + 1, requests: e.requests + requestCount(slice) });
      }
    }
    const costs = backfillGrainCosts([input]);
    expect(new Map(costs.map((c) => [`${c.stream}|${c.grain}`, { slices: c.slices, requests: c.requests }]))).toEqual(expected);
    expect(costs.find((c) => c.stream === 'venue-users-summary' && c.grain === 'day')!.requests).toBe(3 * eachDay('2026-08-01', '2026-11-22').length);
    const [tieredCost, dayCost, monthCost, bothCost] = summaryGrainSettings(92).map((setting) => requestsWithSummaryGrain([input], setting));
    const { dayHorizonDays, ...untiered } = input;
    expect(dayHorizonDays).toBe(92);
    expect(tieredCost).toBe(plannedRequests(chains));
    expect(dayCost).toBe(plannedRequests(planBackfill({ ...untiered, grains: ['day'] })));
    expect(monthCost).toBe(plannedRequests(planBackfill({ ...untiered, grains: ['month'] })));
    // Both grains everywhere: the day plan plus the 13 months touched, per venue.
    expect(bothCost! - dayCost!).toBe(3 * 13);
  });
});
