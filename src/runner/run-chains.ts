import { codeOf } from '../errors/index.js';
import type { Chain, Slice } from '../plan/index.js';

export interface ChainRunOptions {
  /**
   * Chains worked on at once (their requests are bounded again by the client); also how far
   * ahead of the work the plan is read: a chain is taken from the plan only when one of these
   * slots is free, so the plan is never materialised.
   */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Extracts and commits one slice; resolves with its row count. */
  runSlice(slice: Slice): Promise<number>;
  /** Records a failed slice (sync_errors); its chain stops there, other chains go on. Must not throw. */
  onFailure(slice: Slice, error: unknown): Promise<void>;
  /** An error that makes every other slice pointless too (a refused token, a broken warehouse). */
  isFatal(error: unknown): boolean;
  /**
   * Told of the first fatal error, as it happens: the caller aborts the slices in flight (their
   * requests and waits), which then count as not run.
   */
  onFatal?(error: unknown): void;
  onSliceDone?(slice: Slice, rows: number): void;
}

/** done + failed + skipped is always the number of slices in the chains. */
export interface ChainRunResult {
  readonly done: number;
  /** Ran and failed (recorded through `onFailure`), fatal errors included. */
  readonly failed: number;
  /** Not started: behind a failed slice of their chain, or after an interruption. */
  readonly skipped: number;
  readonly rows: number;
  readonly fatal?: unknown;
  readonly interrupted: boolean;
}

/**
 * Runs chains concurrently, each chain's slices in order. A failed slice stops its chain (later
 * windows wait for the next run, so a cursor never passes a hole); a fatal error or an abort
 * stops starting new slices, and what is in flight finishes and commits.
 *
 * `chains` is read lazily by `concurrency` workers, each taking the next chain when it is done
 * with one: a queue of depth zero in front of the pool. So at most `concurrency` chains exist
 * at once (a lazy plan plans the next one when it is taken), not the plan's millions of slices
 * as closures waiting in a limiter's queue.
 */
export async function runChains(chains: Iterable<Chain>, options: ChainRunOptions): Promise<ChainRunResult> {
  const plan = chains[Symbol.iterator]();
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let rows = 0;
  let fatal: unknown;
  const stopped = (): boolean => fatal !== undefined || options.signal?.aborted === true;

  const runChain = async (chain: Chain): Promise<void> => {
    for (let index = 0; index < chain.slices.length; index++) {
      const slice = chain.slices[index]!;
      if (stopped()) {
        skipped += chain.slices.length - index;
        return;
      }
      try {
        const sliceRows = await options.runSlice(slice);
        done += 1;
        rows += sliceRows;
        options.onSliceDone?.(slice, sliceRows);
      } catch (error) {
        // Every slice lands in exactly one count: stopped by the interruption (or abandoned
        // after a fatal error), it did not run; otherwise it failed (a fatal error too: it is
        // this slice's error as well).
        if ((options.signal?.aborted || fatal !== undefined) && isAbort(error)) {
          skipped += chain.slices.length - index;
          return;
        }
        failed += 1;
        if (fatal === undefined && options.isFatal(error)) {
          fatal = error;
          options.onFatal?.(error);
        }
        skipped += chain.slices.length - index - 1;
        await options.onFailure(slice, error);
        return;
      }
    }
  };
  // Each worker takes the next chain only when it has finished one (the generator is not
  // re-entered: `next()` is synchronous and workers resume one at a time).
  const worker = async (): Promise<void> => {
    for (let next = plan.next(); !next.done; next = plan.next()) await runChain(next.value);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return { done, failed, skipped, rows, interrupted: options.signal?.aborted === true, ...(fatal === undefined ? {} : { fatal }) };
}

function isAbort(error: unknown): boolean {
  const code = codeOf(error);
  return (error instanceof Error && error.name === 'AbortError') || code === 'ABORT_ERR' || code === 'VENUE_API_ABORTED';
}
