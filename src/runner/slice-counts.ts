/**
 * Where every planned slice of a run went: `done + failed + skipped + doneEarlier = total`.
 * `failed` ran and failed (each has a `sync_errors` row); `skipped` did not run (behind a failed
 * slice of its chain, or stopped by an interruption or a fatal error) and runs next time;
 * `doneEarlier` was done by an earlier run of a resumed backfill.
 */
export interface SliceCounts {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly skipped: number;
  readonly doneEarlier: number;
}

const n = (value: number): string => value.toLocaleString('en-US');

/** "10 done, 0 failed, 1 not run (of 11)", for the run summary, serve's job line and logs. */
export function formatSliceCounts(slices: SliceCounts): string {
  const earlier = slices.doneEarlier > 0 ? `, ${n(slices.doneEarlier)} done by an earlier run` : '';
  return `${n(slices.done)} done, ${n(slices.failed)} failed, ${n(slices.skipped)} not run${earlier} (of ${n(slices.total)})`;
}
