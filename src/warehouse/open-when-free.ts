import { setTimeout as delay } from 'node:timers/promises';
import { isEtlError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { openWarehouse, type OpenWarehouseOptions } from './open.js';
import type { Warehouse } from './warehouse.js';

export interface OpenWhenFreeOptions extends OpenWarehouseOptions {
  /** How long to wait for another process's write lock before giving up with VENUE_WAREHOUSE_LOCKED. */
  readonly waitMs: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

/**
 * Opens the warehouse, waiting a while when another process holds it. `venue-etl serve` takes
 * the lock for a few hundred milliseconds at a time (event merges, short jobs): a command that
 * arrives then should wait its turn, not fail. A lock held longer (a nightly job) still ends in
 * the clear VENUE_WAREHOUSE_LOCKED error naming the holder.
 */
export async function openWarehouseWhenFree(path: string, options: OpenWhenFreeOptions): Promise<Warehouse> {
  const deadline = Date.now() + options.waitMs;
  let pause = 100;
  let told = false;
  for (;;) {
    try {
      return await openWarehouse(path, options);
    } catch (error) {
      const locked = isEtlError(error) && error.code === 'VENUE_WAREHOUSE_LOCKED';
      if (!locked || Date.now() + pause > deadline || options.signal?.aborted) throw error;
      if (!told) {
        options.logger?.info(
          { path, holder: (error as { details?: { pid?: number } }).details?.pid },
          `the warehouse is in use by another process; waiting up to ${Math.round(options.waitMs / 1000)}s for it`,
        );
        told = true;
      }
      await delay(pause, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
      pause = Math.min(pause * 2, 2000);
    }
  }
}
