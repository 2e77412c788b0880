import { isSnapshotEndpoint, type EndpointRow } from '../catalogue/index.js';
import { daysBetween, eachDay } from '../calendar/index.js';

/** One request of a slice: the `from`/`to` it sends (none for snapshots). */
export interface PlannedRequest {
  readonly from?: string;
  readonly to?: string;
}

/**
 * The unit of work: (stream, scope id, window). A slice is extracted, normalized and committed
 * as a whole: its rows replace the window's rows in one transaction with its cursor move.
 */
export interface Slice {
  /** Stable across runs, so a backfill can tell which slices it already finished. */
  readonly key: string;
  readonly stream: string;
  readonly endpoint: EndpointRow;
  readonly scopeId: string;
  readonly windowFrom: string;
  readonly windowTo: string;
  /** Summary period grain, for summary streams. */
  readonly grain?: 'day' | 'month';
}

/**
 * The requests of a slice, derived from its window rather than stored: a two-year backfill of a
 * thousand venues plans millions of day-summary requests, and keeping them as objects cost
 * ~95 bytes each before the first request was sent.
 * - snapshots (roles, accounts): one request without dates;
 * - history and month summaries: one request for the window;
 * - day summaries: one request per day of the window.
 */
export function requestsOf(slice: Slice): PlannedRequest[] {
  if (isSnapshotEndpoint(slice.endpoint)) return [{}];
  if (slice.grain === 'day') return eachDay(slice.windowFrom, slice.windowTo).map((day) => ({ from: day, to: day }));
  return [{ from: slice.windowFrom, to: slice.windowTo }];
}

export function requestCount(slice: Slice): number {
  if (isSnapshotEndpoint(slice.endpoint)) return 1;
  return slice.grain === 'day' ? daysBetween(slice.windowFrom, slice.windowTo) + 1 : 1;
}

/**
 * Slices of one (stream, scope id), run in order: a window commits before the next starts, so a
 * failure stops the chain and its cursor never passes a hole.
 */
export interface Chain {
  readonly stream: string;
  readonly scopeId: string;
  readonly slices: readonly Slice[];
}

export function sliceKey(stream: string, scopeId: string, from: string, to: string, grain?: string): string {
  return [stream, scopeId, from, to, grain ?? ''].join('|');
}
