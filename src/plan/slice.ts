import type { EndpointRow } from '../catalogue/index.js';

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
  readonly requests: readonly PlannedRequest[];
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
