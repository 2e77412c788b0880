/** What one merge of the journal into the warehouse did. */
export interface MergeResult {
  /**
   * `merged`: every record readable at the start is in the warehouse. `locked`: another
   * process writes the warehouse; nothing was merged, the journal keeps the events.
   * `failed`: see `error`; the journal keeps the events not merged. `stopped`: stopped between
   * two transactions (a stop's deadline); the rest stays in the journal for the next merge.
   */
  readonly status: 'merged' | 'locked' | 'failed' | 'stopped';
  /** Journal records read (redeliveries included). */
  readonly records: number;
  /** Rows added to upsert_events. */
  readonly inserted: number;
  /** Records whose body was already stored. */
  readonly duplicates: number;
  /** Records that no longer pass validation (journaled by another version); logged, skipped. */
  readonly invalid: number;
  /** Transactions committed. */
  readonly batches: number;
  /** Sealed segments fully merged and deleted. */
  readonly segmentsRemoved: number;
  /** Sealed segments that ended in a torn record: merged up to it, then kept as `*.torn`. */
  readonly segmentsTorn: number;
  readonly durationMs: number;
  readonly error?: Error;
}

export function emptyMergeResult(status: MergeResult['status'], error?: Error): MergeResult {
  return {
    status,
    records: 0,
    inserted: 0,
    duplicates: 0,
    invalid: 0,
    batches: 0,
    segmentsRemoved: 0,
    segmentsTorn: 0,
    durationMs: 0,
    ...(error ? { error } : {}),
  };
}
