import type { SnapshotNote } from '../warehouse/commit-slices.js';
import type { SliceCommit } from '../warehouse/slice-commit.js';
import { isWarehouseFailure } from '../warehouse/warehouse-failure.js';

export interface CommitSink {
  commitSlices(
    runId: string,
    commits: readonly SliceCommit[],
  ): Promise<{ readonly rowsWritten: number; readonly rowsBySlice?: readonly number[]; readonly snapshots?: readonly SnapshotNote[] }>;
}

interface Pending {
  readonly commit: SliceCommit;
  readonly rows: number;
  readonly resolve: (rowsWritten: number) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitterOptions {
  /** Flush once this many rows wait. */
  readonly maxRows?: number;
  /**
   * Flush at the latest this long after the first slice arrived (default 200 ms). A commit
   * costs ~20 statements whatever its size: against a 20 ms API, 20 ms groups meant ~9 slices
   * per commit and the commits took as much CPU as the requests.
   */
  readonly maxDelayMs?: number;
  /**
   * Whether more slices are on their way (being extracted). When none are, waiting only delays
   * the slices already queued (their chains wait for them), so the group is committed at once.
   */
  readonly moreComing?: () => boolean;
  /** Told of each committed slice with the rows the warehouse wrote for it (the run summary per stream). */
  readonly onCommitted?: (commit: SliceCommit, rowsWritten: number) => void;
  /** Told of the roles snapshots a commit held back or confirmed (docs/warehouse.md, "Held snapshots"). */
  readonly onSnapshots?: (notes: readonly SnapshotNote[]) => void;
}

/**
 * Group commit: slices that finish close together are committed in one transaction, so a
 * backfill of thousands of small slices pays the commit cost per group, not per slice. Each
 * slice still commits atomically with its own cursor move (the group is all-or-nothing); when a
 * group fails, its slices are retried one by one so that one bad slice fails alone.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private queuedRows = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Callers of `room()` waiting for a full queue to be taken by a flush. */
  private waiting: (() => void)[] = [];
  private readonly maxRows: number;
  private readonly maxDelayMs: number;
  private readonly moreComing: () => boolean;
  private readonly onCommitted: (commit: SliceCommit, rowsWritten: number) => void;
  private readonly onSnapshots: (notes: readonly SnapshotNote[]) => void;
  private abandoned = false;
  private written = 0;

  constructor(
    private readonly sink: CommitSink,
    private readonly runId: string,
    options: GroupCommitterOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 200_000;
    this.maxDelayMs = options.maxDelayMs ?? 200;
    this.moreComing = options.moreComing ?? (() => true);
    this.onCommitted = options.onCommitted ?? (() => undefined);
    this.onSnapshots = options.onSnapshots ?? (() => undefined);
  }

  /** Rows the warehouse actually wrote (unchanged windows are not rewritten). */
  get rowsWritten(): number {
    return this.written;
  }

  /** Resolves with the slice's row count once it is committed; rejects when its commit failed. */
  submit(commit: SliceCommit, rows: number): Promise<number> {
    if (this.abandoned) return Promise.reject(abandonedError());
    return new Promise((resolve, reject) => {
      this.queue.push({ commit, rows, resolve, reject });
      this.queuedRows += rows;
      if (this.queuedRows >= this.maxRows || !this.moreComing()) this.flushSoon(0);
      else this.flushSoon(this.maxDelayMs);
    });
  }

  /**
   * Resolves once the queue has room: at once below `maxRows` queued rows, else when a flush
   * takes the queue. Extraction waits here before it starts, so rows held in memory stay
   * bounded (a queue of `maxRows` plus the group being committed) however many slices run.
   */
  room(): Promise<void> {
    if (this.queuedRows < this.maxRows) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * Commits nothing more (a run told to stop at once): the slices queued, and any submitted
   * later, are rejected with an AbortError (their runs count them as not run); a group already
   * being committed finishes. Returns how many queued slices were dropped.
   */
  abandon(): number {
    this.abandoned = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const dropped = this.queue;
    this.queue = [];
    this.queuedRows = 0;
    for (const pending of dropped) pending.reject(abandonedError());
    for (const resolve of this.waiting.splice(0)) resolve();
    return dropped.length;
  }

  /** Commits everything queued and waits for it. */
  async drain(): Promise<void> {
    this.flushSoon(0);
    await this.flushing;
    if (this.queue.length > 0) await this.drain();
  }

  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, delayMs);
  }

  /**
   * The warehouse itself failed (full, corrupt, invalidated): no slice of the group is to blame,
   * and each would be refused alike, so they are not tried one by one. The first slice carries
   * the error (the run stops on it); the others are dropped once it has (not run: an AbortError).
   */
  private async stopOn(error: unknown, batch: readonly Pending[]): Promise<void> {
    batch[0]?.reject(error);
    await new Promise((resolve) => setImmediate(resolve));
    for (const pending of batch.slice(1)) pending.reject(abandonedError());
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    this.queuedRows = 0;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
    try {
      const { rowsWritten, rowsBySlice, snapshots } = await this.sink.commitSlices(
        this.runId,
        batch.map((p) => p.commit),
      );
      this.written += rowsWritten;
      if (snapshots && snapshots.length > 0) this.onSnapshots(snapshots);
      for (const [index, pending] of batch.entries()) this.onCommitted(pending.commit, rowsBySlice?.[index] ?? 0);
      for (const pending of batch) pending.resolve(pending.rows);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      if (isWarehouseFailure(error)) {
        await this.stopOn(error, batch);
        return;
      }
      for (const pending of batch) {
        try {
          const { rowsWritten, snapshots } = await this.sink.commitSlices(this.runId, [pending.commit]);
          this.written += rowsWritten;
          if (snapshots && snapshots.length > 0) this.onSnapshots(snapshots);
          this.onCommitted(pending.commit, rowsWritten);
          pending.resolve(pending.rows);
        } catch (single) {
          pending.reject(single);
        }
      }
    }
  }
}

function abandonedError(): DOMException {
  return new DOMException('the run stopped without committing this slice', 'AbortError');
}
