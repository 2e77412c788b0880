import { isSnapshotEndpoint, type EndpointRow } from '../catalogue/index.js';
import type { HistoryGrain, SummaryGrain } from '../config/index.js';
import { addDays, maxDate, minDate } from '../calendar/index.js';
import { dayTierStart, historyWindows, monthPeriods, splitWindows } from './dates.js';
import { sliceKey, type Slice } from './slice.js';

export interface SliceOptions {
  readonly windowDays: number;
  /** Summary grains. */
  readonly grains: readonly SummaryGrain[];
  /** History grains (day when absent). */
  readonly historyGrains?: readonly HistoryGrain[];
  /**
   * Tiered summaries (`sync.summaryGrain` 'tiered', with both grains): day periods only from
   * dayTierStart(until, days) on, whole months before it. `until` is the run's last complete
   * day, whatever range is planned, so the day tier stays the recent one.
   */
  readonly dayHorizon?: { readonly days: number; readonly until: string };
}

/**
 * The slices that extract [from, to] of one stream for one scope id:
 * - history, per grain — 'day': one request per window of `windowDays`, never a one-day window
 *   (see historyWindows); 'hour': windows of `windowDays`, one request per day (the API answers a
 *   one-day range with its 24 hourly points);
 * - summaries: per grain — 'day': one request per day (one period per day), windows of
 *   `windowDays`; 'month': one slice per calendar month touched, from the month's first day
 *   (a summary of part of a month would be a different period); tiered (see `dayHorizon`):
 *   the months before the day tier first, then its days, so the shared cursor moves forward;
 * - snapshots (roles, accounts): one slice, no dates.
 */
export function slicesForRange(endpoint: EndpointRow, scopeId: string, from: string, to: string, options: SliceOptions): Slice[] {
  const stream = endpoint.stream;
  if (isSnapshotEndpoint(endpoint)) {
    return [{ key: sliceKey(stream, scopeId, to, to), stream, endpoint, scopeId, windowFrom: to, windowTo: to }];
  }
  const slices: Slice[] = [];
  if (endpoint.kind === 'series') {
    const grains = options.historyGrains ?? ['day'];
    if (grains.includes('day')) {
      for (const w of historyWindows(from, to, options.windowDays)) {
        slices.push({ key: sliceKey(stream, scopeId, w.from, w.to), stream, endpoint, scopeId, windowFrom: w.from, windowTo: w.to });
      }
    }
    if (grains.includes('hour')) {
      for (const w of splitWindows(from, to, options.windowDays)) {
        slices.push({ key: sliceKey(stream, scopeId, w.from, w.to, 'hour'), stream, endpoint, scopeId, windowFrom: w.from, windowTo: w.to, grain: 'hour' });
      }
    }
    return slices;
  }
  const tiers = summaryTiers(from, to, options);
  const days = (tiers.day ? splitWindows(tiers.day.from, tiers.day.to, options.windowDays) : []).map((w) => summarySlice(endpoint, scopeId, w, 'day'));
  const months = (tiers.month ? monthPeriods(tiers.month.from, tiers.month.to) : []).map((m) => summarySlice(endpoint, scopeId, m, 'month'));
  // Slices run in order and move the stream's one cursor to their end: tiered months lie before
  // the days; otherwise each month reaches `to`, so the days go first (a failed day stops the
  // chain before a month moves the cursor past it).
  return tiers.tiered ? [...months, ...days] : [...days, ...months];
}

function summarySlice(endpoint: EndpointRow, scopeId: string, window: Range, grain: 'day' | 'month'): Slice {
  const stream = endpoint.stream;
  return { key: sliceKey(stream, scopeId, window.from, window.to, grain), stream, endpoint, scopeId, windowFrom: window.from, windowTo: window.to, grain };
}

interface Range {
  readonly from: string;
  readonly to: string;
}

/**
 * The range each summary grain covers. Without a horizon each configured grain covers [from,
 * to]. Tiered: days over [max(from, tier start), to], months over [from, tier start - 1] (whole
 * months: monthPeriods starts at the month of `from`, and the tier start is a month's first day).
 */
function summaryTiers(from: string, to: string, options: SliceOptions): { day?: Range; month?: Range; tiered: boolean } {
  const day = options.grains.includes('day');
  const month = options.grains.includes('month');
  if (!options.dayHorizon || !day || !month) return { tiered: false, ...(day ? { day: { from, to } } : {}), ...(month ? { month: { from, to } } : {}) };
  const start = dayTierStart(options.dayHorizon.until, options.dayHorizon.days);
  const dayFrom = maxDate(from, start);
  const monthTo = minDate(to, addDays(start, -1));
  return { tiered: true, ...(dayFrom <= to ? { day: { from: dayFrom, to } } : {}), ...(from <= monthTo ? { month: { from, to: monthTo } } : {}) };
}
