import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Heap growth after a garbage collection, in percent of what survived it. A run allocates fast
 * (every answer is parsed, normalized and handed to DuckDB, then dropped) over a small live set
 * (the chains in flight and the rows waiting for their group commit: ~45 MB at 1,000 venues),
 * and V8 then grows its heap to several times the live set: 160-210 MB of heap at 1,000 venues
 * x 14 days, 80 % of it garbage (B3). 20 % growth collects more often instead: the heap of that
 * backfill peaked at 83 MB instead of 212 MB (docs/scaling.md, "Memory"). More collections
 * cost CPU; that cost was not measured apart from the run's wall time (B1 shows it).
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The young generation (both semi-spaces) stops growing once it reaches this size. V8 doubles it
 * while much of what it allocates survives a scavenge, up to 32 MB (two 16 MB semi-spaces), and
 * a run's allocation rate takes it there: 34 MB of a 1,000-venue backfill's 83 MB heap was the
 * young generation. Stopped at 8 MB, the heap peaked at 55-57 MB and the run's RSS ~27 MB
 * lower (five alternating pairs of runs: 254 vs 281 MB on average), for more frequent, smaller
 * scavenges: ~10 % more CPU, ~6 % more wall time (docs/scaling.md, "Memory").
 */
export const YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

let limited = false;

/**
 * Lowers V8's heap growth for the rest of the process (a run calls it): the old generation's
 * growth after a collection, which V8, unlike the heap's size limits, reads at every
 * collection, so setting it while running takes effect. The young generation is capped by the
 * CLI before it loads (limitYoungGeneration), for `sync` and `backfill` only.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * Stops the young generation's growth at YOUNG_GENERATION_BYTES. `--max-semi-space-size` is
 * read once, when the heap is set up; the growth factor is read at every scavenge. A young
 * generation that has grown does not shrink, so this must run before the program allocates:
 * loading the CLI's modules alone takes it to 32 MB (src/cli.ts calls this first thing).
 */
export function limitYoungGeneration(): void {
  if (limited) return;
  limited = true;
  // V8 grows the young generation by this factor after a scavenge; 1 keeps it at its size.
  const stopGrowing = (): void => setFlagsFromString('--semi-space-growth-factor=1');
  if (youngGenerationBytes() >= YOUNG_GENERATION_BYTES) {
    stopGrowing();
    return;
  }
  // Each garbage collection is reported here (after it): the first that leaves the young
  // generation at the size stops its growth. The observer does not keep the process alive.
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < YOUNG_GENERATION_BYTES) return;
    stopGrowing();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** The young generation's size now (V8's `new_space`: both semi-spaces). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
