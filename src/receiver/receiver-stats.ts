import type { JournalWriterStats } from './journal-writer.js';
import type { MergeResult } from './merge-result.js';
import type { MergeFailing } from './merge-scheduler.js';

/** Counters of a running receiver (a snapshot: read `stats` again for fresh numbers). */
export interface ReceiverStats {
  readonly requests: number;
  /** Answered 2xx: durable in the journal. */
  readonly accepted: number;
  /** Answers per status code, 2xx included. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly journal: JournalWriterStats;
  /** Sum over merges since start. */
  readonly merged: { readonly inserted: number; readonly duplicates: number; readonly merges: number; readonly lockedRetries: number };
  readonly lastMerge: MergeResult | undefined;
  /** Set while merges fail (each of the last `merges`), cleared by the next one that merges. */
  readonly mergeFailing: MergeFailing | undefined;
}

export class IntakeCounters {
  requests = 0;
  accepted = 0;
  readonly statuses: Record<string, number> = {};

  count(status: number): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) this.accepted += 1;
  }
}
