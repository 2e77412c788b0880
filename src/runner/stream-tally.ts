import type { RequestCounts } from '../api/index.js';
import type { Slice } from '../plan/index.js';

/** One stream's part of a run: the rows of the run summary and of `sync_runs.detail.streams`. */
export interface StreamSummary {
  readonly stream: string;
  /** `done + failed + skipped = planned` (slices an earlier run did are not planned again). */
  readonly slices: { readonly planned: number; readonly done: number; readonly failed: number; readonly skipped: number };
  /** API calls sent for the stream, retries included. */
  readonly requests: number;
  readonly retries: number;
  readonly rowsExtracted: number;
  readonly rowsWritten: number;
  /** From the stream's first slice started to its last slice ended (slices of a stream overlap). */
  readonly durationMs: number;
}

interface Tally {
  planned: number;
  done: number;
  failed: number;
  rowsExtracted: number;
  rowsWritten: number;
  firstStart: number | undefined;
  lastEnd: number | undefined;
}

/** Counts a run per stream as its slices start, finish, fail and commit. */
export class StreamTally {
  private readonly streams = new Map<string, Tally>();
  private readonly requestsBefore = new Map<string, { requests: number; retries: number }>();

  constructor(
    /** Planned slices per stream (a counting pass over the plan: the plan itself is not kept). */
    planned: ReadonlyMap<string, number>,
    private readonly byStream: ReadonlyMap<string, RequestCounts>,
    private readonly now: () => number = () => Date.now(),
  ) {
    for (const [stream, slices] of planned) this.of(stream).planned += slices;
    // The client may have called for a stream before the run (the access check): only this run's calls count.
    for (const [stream, counts] of byStream) this.requestsBefore.set(stream, { requests: counts.requests, retries: counts.retries });
  }

  started(slice: Slice): void {
    this.of(slice.stream).firstStart ??= this.now();
  }

  ended(slice: Slice, outcome: { readonly rows: number } | 'failed'): void {
    const tally = this.of(slice.stream);
    tally.lastEnd = this.now();
    if (outcome === 'failed') tally.failed += 1;
    else {
      tally.done += 1;
      tally.rowsExtracted += outcome.rows;
    }
  }

  written(stream: string, rows: number): void {
    this.of(stream).rowsWritten += rows;
  }

  summaries(): StreamSummary[] {
    return [...this.streams.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([stream, t]) => {
        const api = this.byStream.get(stream);
        const before = this.requestsBefore.get(stream);
        return {
          stream,
          slices: { planned: t.planned, done: t.done, failed: t.failed, skipped: t.planned - t.done - t.failed },
          requests: (api?.requests ?? 0) - (before?.requests ?? 0),
          retries: (api?.retries ?? 0) - (before?.retries ?? 0),
          rowsExtracted: t.rowsExtracted,
          rowsWritten: t.rowsWritten,
          durationMs: t.firstStart === undefined || t.lastEnd === undefined ? 0 : Math.max(0, t.lastEnd - t.firstStart),
        };
      });
  }

  private of(stream: string): Tally {
    let tally = this.streams.get(stream);
    if (!tally) {
      tally = { planned: 0, done: 0, failed: 0, rowsExtracted: 0, rowsWritten: 0, firstStart: undefined, lastEnd: undefined };
      this.streams.set(stream, tally);
    }
    return tally;
  }
}
