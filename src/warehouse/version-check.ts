import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isEtlError } from '../errors/index.js';
import { openReadConnection } from './read-connection.js';

/**
 * For a long-running command (`serve`), at its start: refuses a warehouse a newer venue-etl
 * migrated (VENUE_WAREHOUSE_TOO_NEW) before it runs for hours failing every merge while its
 * health said ok. Anything else (no file yet, another process holding it, a damaged file) is
 * left to the first write, which opens the file and reports it as ever.
 */
export async function refuseNewerWarehouse(path: string): Promise<void> {
  if (!existsSync(resolve(path))) return;
  try {
    const reader = await openReadConnection(path, { waitMs: 0 });
    await reader.close();
  } catch (error) {
    if (isEtlError(error) && error.code === 'VENUE_WAREHOUSE_TOO_NEW') throw error;
  }
}
