import { isEtlError } from '../errors/index.js';
import type { Warehouse } from '../warehouse/index.js';

/** All the merge needs from a warehouse: its merge transactions. */
export type MergeWarehouse = Pick<Warehouse, 'mergeEvents' | 'forgetJournalSegment'>;

/** A warehouse the merge opened itself: `query` runs the CHECKPOINT before `close`. */
export type ClosableWarehouse = MergeWarehouse & Pick<Warehouse, 'query' | 'close'>;

/** Opens the warehouse for writing; throws VENUE_WAREHOUSE_LOCKED while another process writes it. */
export type OpenWarehouseForMerge = (path: string) => Promise<ClosableWarehouse>;

/**
 * How a merge gets a writable warehouse and gives it back. The receiver on its own opens the
 * file for each merge and closes it right after, so the write lock is free for a sync in
 * another process between merges. A process that already holds the warehouse (the `serve`
 * command: cron jobs write it too) lends its handle instead, behind its own mutex.
 */
export type WarehouseAccess = <T>(use: (warehouse: MergeWarehouse) => Promise<T>) => Promise<T>;

/** Runs a section after (and before) the process's other warehouse writers, e.g. a Mutex's `run`. */
export type RunExclusive = <T>(section: () => Promise<T>) => Promise<T>;

const unserialized: RunExclusive = (section) => section();

/**
 * Opens the file for each merge and closes it after. `runExclusive` queues the merge behind
 * the process's other writers (a `serve` process whose jobs open the same file).
 */
export function openForEachMerge(path: string, open: OpenWarehouseForMerge, runExclusive: RunExclusive = unserialized): WarehouseAccess {
  return (use) =>
    runExclusive(async () => {
      const warehouse = await open(path);
      try {
        const result = await use(warehouse);
        // Closing the last handle checkpoints the WAL into the file synchronously, stalling the
        // event loop (and every sender waiting for an answer) for hundreds of milliseconds; an
        // explicit CHECKPOINT runs on DuckDB's threads and leaves close() nothing to do.
        await warehouse.query('CHECKPOINT').catch(() => undefined);
        return result;
      } finally {
        await warehouse.close();
      }
    });
}

/**
 * Lends an open warehouse. `runExclusive` serializes merges with the process's other writers
 * (or pauses them while a job runs); without it the Warehouse's own write queue orders the
 * transactions.
 */
export function sharedWarehouse(warehouse: MergeWarehouse, runExclusive: RunExclusive = unserialized): WarehouseAccess {
  return (use) => runExclusive(() => use(warehouse));
}

export function isWarehouseLocked(error: unknown): boolean {
  return isEtlError(error) && error.code === 'VENUE_WAREHOUSE_LOCKED';
}
