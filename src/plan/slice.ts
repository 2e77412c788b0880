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
  /**
   * Summary streams: the period grain. History streams: 'hour' for the hour grain (one request
   * per day, answered with its 24 hourly points); absent for the day grain, so the keys of day
   * slices stay what they were before hours existed (a resumed backfill still finds them).
   */
  readonly grain?: 'day' | 'month' | 'hour';
}

/**
 * The stream key of a slice's cursor and of its failures: the stream for day data, the stream
 * suffixed `@hour` for the hour grain of a history stream. The grains keep separate cursors, so
 * a failed hour slice does not hold back the days (or the reverse), and `status` lists them as
 * two lines (`venue-devices-history`, `venue-devices-history@hour`).
 */
export function streamKey(stream: string, grain?: Slice['grain']): string {
  return grain === 'hour' ? `${stream}${HOUR_SUFFIX}` : stream;
}

/** Suffix of the hour grain's stream key (stream names are lower-case words joined by "-"). */
export const HOUR_SUFFIX = '@hour';

/**
 * The requests of a slice, derived from its window rather than stored: a two-year backfill of a
 * thousand venues plans millions of day-summary requests, and keeping them as objects cost
 * ~95 bytes each before the first request was sent.
 * - snapshots (roles, accounts): one request without dates;
 * - history and month summaries: one request for the window;
 * - day summaries and the hour grain of histories: one request per day of the window.
 */
export function requestsOf(slice: Slice): PlannedRequest[] {
  if (isSnapshotEndpoint(slice.endpoint)) return [{}];
  if (perDay(slice)) return eachDay(slice.windowFrom, slice.windowTo).map((day) => ({ from: day, to: day }));
  return [{ from: slice.windowFrom, to: slice.windowTo }];
}

/** A request per day: day summaries (one period each) and hourly histories (the API answers a one-day range by the hour). */
function perDay(slice: Slice): boolean {
  return slice.grain === 'day' || slice.grain === 'hour';
}

export function requestCount(slice: Slice): number {
  if (isSnapshotEndpoint(slice.endpoint)) return 1;
  return perDay(slice) ? daysBetween(slice.windowFrom, slice.windowTo) + 1 : 1;
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
