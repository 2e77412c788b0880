import { setTimeout as delay } from 'node:timers/promises';
import { codeOf, formatError } from '../errors/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import { mergeJournal, type MergeJournalOptions } from './merge-journal.js';
import { emptyMergeResult, type MergeResult } from './merge-result.js';
import { isWarehouseLocked, type WarehouseAccess } from './warehouse-access.js';

export interface MergeSchedulerOptions {
  readonly journalDir: string;
  readonly access: WarehouseAccess;
  /** Shortest pause between merges while there is something to merge; 0 = only on `mergeNow`. */
  readonly intervalMs: number;
  readonly logger: Logger;
  /** The writer's current segment (kept even when a merge runs in between rotations). */
  readonly activeSegment: () => string | undefined;
  /** Told what a complete merge took in, so the journal's cap counts only unmerged bytes. */
  readonly journal?: { mark(): number; mergedUpTo(mark: number): void };
}

/** Merges failing in a row (a full disk, a corrupt warehouse): what `serve`'s /healthz reports. */
export interface MergeFailing {
  /** When the first of them failed (ISO 8601). */
  readonly since: string;
  readonly merges: number;
  /** The latest one's error: its code and `CODE: message` with the hint, secrets scrubbed. */
  readonly code: string | undefined;
  readonly message: string;
}

/** While another process holds the warehouse, the final merge tries again this often. */
const LOCKED_RETRY_MS = 250;

/**
 * Runs merges one at a time: every `intervalMs` while the journal may hold unmerged events
 * (at start, after an accepted event, after a merge that could not finish), and on demand.
 * A locked warehouse is normal (a sync in another process): the events stay in the journal
 * and the next tick tries again. The warehouse is touched only when there is work, so an idle
 * receiver does not take the write lock every interval.
 *
 * A merge cycle costs more as the warehouse grows (DuckDB rewrites every key index at the
 * checkpoint that closing the file makes), so the pause is also at least IDLE_FACTOR times the
 * last cycle: merging never takes more than about a quarter of the time, and the journal simply
 * holds more events per merge.
 */
const IDLE_FACTOR = 3;

export class MergeScheduler {
  private dirty = true;
  private running: Promise<MergeResult> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lockedSince: number | undefined;
  private lastCycleMs = 0;
  readonly totals = { inserted: 0, duplicates: 0, merges: 0, lockedRetries: 0 };
  last: MergeResult | undefined;
  /** Since when merges have been failing (not locked: failing), and how many in a row; undefined once one merges. */
  failing: MergeFailing | undefined;

  constructor(private readonly options: MergeSchedulerOptions) {}

  start(): void {
    this.schedule();
  }

  /** New events are in the journal. */
  markDirty(): void {
    this.dirty = true;
  }

  /** Merges now (after a merge already running), so everything acknowledged before the call is included. */
  async mergeNow(): Promise<MergeResult> {
    await this.running?.catch(() => undefined);
    return this.runOnce();
  }

  /** No more ticks; waits for a running merge. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /**
   * The last merge, once intake is closed and the journal sealed: everything journaled, every
   * segment deleted once merged, for at most `timeoutMs` (waiting out another process's write
   * lock meanwhile). It stops between two transactions at the deadline or when `hurry` aborts;
   * what is left stays in the journal for the next start.
   */
  async finalMerge(timeoutMs: number, hurry?: AbortSignal): Promise<MergeResult> {
    await this.stop();
    const deadline = Date.now() + timeoutMs;
    const shouldStop = (): boolean => Date.now() >= deadline || hurry?.aborted === true;
    for (;;) {
      const result = await this.merge({ allSealed: true, shouldStop });
      if (result.status !== 'locked' || shouldStop()) return result;
      await delay(Math.min(LOCKED_RETRY_MS, deadline - Date.now()), undefined, hurry ? { signal: hurry } : {}).catch(() => undefined);
    }
  }

  private schedule(): void {
    if (this.stopped || this.options.intervalMs <= 0) return;
    this.timer = setTimeout(
      () => {
        void (this.dirty && !this.running ? this.runOnce() : Promise.resolve()).finally(() => this.schedule());
      },
      Math.max(this.options.intervalMs, IDLE_FACTOR * this.lastCycleMs),
    );
    this.timer.unref();
  }

  private runOnce(): Promise<MergeResult> {
    const run = this.merge().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async merge(extra: Pick<MergeJournalOptions, 'allSealed' | 'shouldStop'> = {}): Promise<MergeResult> {
    const { logger, journal } = this.options;
    this.dirty = false;
    // Timed from when the warehouse is ours: waiting behind other writers is not merge cost.
    let started: number | undefined;
    let result: MergeResult;
    try {
      result = await this.options.access((warehouse) => {
        started = performance.now();
        const mark = journal?.mark();
        const activeSegment = this.options.activeSegment();
        return mergeJournal(this.options.journalDir, warehouse, { logger, ...(activeSegment ? { activeSegment } : {}), ...extra }).then((merged) => {
          if (merged.status === 'merged' && mark !== undefined) journal?.mergedUpTo(mark);
          return merged;
        });
      });
      if (result.status === 'stopped') this.dirty = true;
      this.failing = undefined;
      if (this.lockedSince !== undefined) logger.info({ waitedMs: Date.now() - this.lockedSince }, 'warehouse free again; journal merged');
      this.lockedSince = undefined;
      this.totals.inserted += result.inserted;
      this.totals.duplicates += result.duplicates;
      this.totals.merges += 1;
    } catch (error) {
      this.dirty = true;
      if (isWarehouseLocked(error)) {
        this.totals.lockedRetries += 1;
        // Once per episode at info: a sync holding the lock for minutes is expected.
        if (this.lockedSince === undefined) logger.info({ err: error }, 'warehouse locked by another process; events stay in the journal until it is free');
        this.lockedSince ??= Date.now();
        result = emptyMergeResult('locked', error as Error);
      } else {
        logger.error({ err: error }, 'merging the journal into the warehouse failed; will retry');
        result = emptyMergeResult('failed', error as Error);
        this.failing = {
          since: this.failing?.since ?? new Date().toISOString(),
          merges: (this.failing?.merges ?? 0) + 1,
          code: codeOf(error),
          message: scrubSecrets(formatError(error)),
        };
      }
    }
    this.lastCycleMs = started === undefined ? 0 : performance.now() - started;
    this.last = result;
    return result;
  }
}
