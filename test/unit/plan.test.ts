import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { planBackfill, planSync, plannedRequests, requestCount, requestsOf, splitWindows, monthPeriods } from '../../src/plan/index.js';

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
