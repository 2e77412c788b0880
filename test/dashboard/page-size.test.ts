/**
 * The size budget of the file: 1,000 venues × 13 months at day grain (the default window) in at
 * most 16 MB (docs/dashboard.md, "Size and time"). The page holds what the collector gives it, so the
 * budget is checked on that shape filled with counts of a busy venue's size (seeded), every
 * daily series and monthly figure present and no hourly rows (which add a grid per venue-month).
 */
import { describe, expect, it } from 'vitest';
import { calendarDays } from '../../src/dashboard/calendar-days.js';
import { DAILY_METRICS, type PageData } from '../../src/dashboard/page-data.js';
import { renderHtml } from '../../src/dashboard/render-html.js';
import { draw, unit } from '../../src/simulator/hash.js';

const BUDGET_BYTES = 16e6;

function busyPage(venueCount: number, days: readonly string[]): PageData {
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  const count = (label: string, v: number, k: number, max: number) => Math.floor(unit(draw(7, label, v, k)) * max);
  const venues = Array.from({ length: venueCount }, (_, v) => ({
    id: `6f1c1a52-0000-4000-8000-${String(v).padStart(12, '0')}`,
    label: `Venue ${v}`,
    rank: v + 1,
    detected: 1,
    authenticated: 1,
    logins: 1,
    embeds: 1,
  }));
  // Devices in the thousands a day, the other counts in the hundreds.
  const daily = Object.fromEntries(
    DAILY_METRICS.map((metric) => [
      metric,
      venues.map((_, v) => days.map((_, d) => count(metric, v, d, metric === 'detected' || metric === 'authenticated' ? 5000 : 900))),
    ]),
  ) as unknown as PageData['daily'];
  return {
    title: 'size',
    generatedAt: '2026-11-28T00:00:00.000Z',
    from: days[0]!,
    to: null,
    initial: { from: days[days.length - 90]!, to: days.at(-1)! },
    tz: 'UTC',
    topN: 10,
    days,
    months,
    venues,
    daily,
    methods: {
      names: ['autologin', 'email', 'phone', 'social-a', 'social-b'],
      logins: venues.map((_, v) => months.map((_, m) => [0, 1, 2, 3, 4].map((k) => count('method', v, m * 5 + k, 20000)))),
    },
    ratings: { rated: venues.map((_, v) => months.map((_, m) => [0, 1, 2, 3, 4].map((k) => count('rated', v, m * 5 + k, 400)))) },
    funnel: venues.map((_, v) => months.map((_, m) => [0, 1, 2, 3].map((k) => count('funnel', v, m * 4 + k, 3000)))),
    peak: null,
    coverage: { streams: ['venue-devices-history'], days, status: ['L'.repeat(days.length)], loaded: [days.map(() => venueCount)], venues: [venueCount] },
    freshness: [],
    lastRuns: [],
    failedSlices: [],
    access: venues.map((v) => ({
      venue_id: v.id,
      account_id: 'a',
      email: 'owner@example.com',
      full_name: 'Owner',
      roles: 'owner',
      granted_by: 'project',
      permission_count: 27,
    })),
  };
}

describe('the size of the dashboard file', () => {
  it('holds 1,000 venues × 13 months at day grain within 16 MB', () => {
    const days = calendarDays('2025-11-01', '2026-11-30');
    expect(days).toHaveLength(395);
    const bytes = Buffer.byteLength(renderHtml(busyPage(1000, days)));
    console.log(`dashboard of 1,000 venues × ${days.length} days: ${(bytes / 1e6).toFixed(2)} MB`);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    // The budget is not slack: twice the days do not fit.
    expect(Buffer.byteLength(renderHtml(busyPage(1000, calendarDays('2024-10-01', '2026-11-30'))))).toBeGreaterThan(BUDGET_BYTES);
  });
});
