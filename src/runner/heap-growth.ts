import { setFlagsFromString } from 'node:v8';

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
 * Lowers V8's heap growth for the rest of the process. This flag, unlike the heap's size
 * limits, is read at every collection, so setting it while running takes effect.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
