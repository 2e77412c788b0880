import pLimit from 'p-limit';
import { codeOf } from '../errors/index.js';
import type { Chain, Slice } from '../plan/index.js';

export interface ChainRunOptions {
  /** Chains worked on at once (their requests are bounded again by the client). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Extracts and commits one slice; resolves with its row count. */
  runSlice(slice: Slice): Promise<number>;
  /** Records a failed slice (sync_errors); its chain stops there, other chains go on. Must not throw. */
  onFailure(slice: Slice, error: unknown): Promise<void>;
  /** An error that makes every other slice pointless too (a refused token, a broken warehouse). */
  isFatal(error: unknown): boolean;
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
 */
export async function runChains(chains: readonly Chain[], options: ChainRunOptions): Promise<ChainRunResult> {
  const limit = pLimit(Math.max(1, options.concurrency));
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let rows = 0;
  let fatal: unknown;
  const stopped = (): boolean => fatal !== undefined || options.signal?.aborted === true;

  await Promise.all(
    chains.map((chain) =>
      limit(async () => {
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
            // Every slice lands in exactly one count: stopped by the interruption, it did not run;
            // otherwise it failed (a fatal error too: it is this slice's error as well).
            if (options.signal?.aborted && isAbort(error)) {
              skipped += chain.slices.length - index;
              return;
            }
            failed += 1;
            if (options.isFatal(error)) fatal ??= error;
            skipped += chain.slices.length - index - 1;
            await options.onFailure(slice, error);
            return;
          }
        }
      }),
    ),
  );
  return { done, failed, skipped, rows, interrupted: options.signal?.aborted === true, ...(fatal === undefined ? {} : { fatal }) };
}

function isAbort(error: unknown): boolean {
  const code = codeOf(error);
  return (error instanceof Error && error.name === 'AbortError') || code === 'ABORT_ERR' || code === 'VENUE_API_ABORTED';
}
