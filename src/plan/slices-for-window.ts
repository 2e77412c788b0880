import { isSnapshotEndpoint, type EndpointRow } from '../catalogue/index.js';
import type { HistoryGrain, SummaryGrain } from '../config/index.js';
import { historyWindows, monthPeriods, splitWindows } from './dates.js';
import { sliceKey, type Slice } from './slice.js';

export interface SliceOptions {
  readonly windowDays: number;
  /** Summary grains. */
  readonly grains: readonly SummaryGrain[];
  /** History grains (day when absent). */
  readonly historyGrains?: readonly HistoryGrain[];
}

/**
 * The slices that extract [from, to] of one stream for one scope id:
 * - history, per grain — 'day': one request per window of `windowDays`, never a one-day window
 *   (see historyWindows); 'hour': windows of `windowDays`, one request per day (the API answers a
 *   one-day range with its 24 hourly points);
 * - summaries: per grain — 'day': one request per day (one period per day), windows of
 *   `windowDays`; 'month': one slice per calendar month touched, from the month's first day
 *   (a summary of part of a month would be a different period);
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
  if (options.grains.includes('day')) {
    for (const w of splitWindows(from, to, options.windowDays)) {
      slices.push({
        key: sliceKey(stream, scopeId, w.from, w.to, 'day'),
        stream,
        endpoint,
        scopeId,
        windowFrom: w.from,
        windowTo: w.to,
        grain: 'day',
      });
    }
  }
  if (options.grains.includes('month')) {
    for (const m of monthPeriods(from, to)) {
      slices.push({
        key: sliceKey(stream, scopeId, m.from, m.to, 'month'),
        stream,
        endpoint,
        scopeId,
        windowFrom: m.from,
        windowTo: m.to,
        grain: 'month',
      });
    }
  }
  return slices;
}
