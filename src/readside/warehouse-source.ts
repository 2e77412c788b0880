import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
// The instance registry keeps one DuckDBInstance per file per process: inside `venue-etl serve`
// the read side shares the writer's instance instead of failing on its own lock.
import { acquireInstance, releaseInstance } from '../warehouse/instances.js';
import { isLockError, warehouseLocked, warehouseMissing, warehouseOpenFailed } from '../warehouse/errors.js';

/** Where read-side SQL runs: the warehouse file (read-only) or views over the Parquet export. */
export interface QuerySource {
  readonly kind: 'warehouse' | 'parquet';
  readonly connection: DuckDBConnection;
  close(): Promise<void>;
}

export interface WarehouseSourceOptions {
  /**
   * Open the file as a writer would instead of READ_ONLY, so this process's own writers (in
   * `serve`: receiver merges, sync jobs) can open it while the reader is busy; other processes
   * are then locked out, as by any writer. Statements are still checked to be reads.
   */
  readonly shareWithWriters?: boolean;
}

/**
 * A read-only connection to the warehouse. Fails with VENUE_WAREHOUSE_MISSING when the file
 * does not exist (nothing synced yet) and VENUE_WAREHOUSE_LOCKED while another process writes it.
 */
export async function openWarehouseSource(path: string, options: WarehouseSourceOptions = {}): Promise<QuerySource> {
  const absolutePath = resolve(path);
  if (!existsSync(absolutePath)) throw warehouseMissing(path);
  let instance;
  try {
    instance = await acquireInstance(absolutePath, !(options.shareWithWriters ?? false));
  } catch (error) {
    throw isLockError(error) ? warehouseLocked(path, error) : warehouseOpenFailed(path, error);
  }
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    await utcSession(connection);
  } catch (error) {
    connection?.closeSync();
    await releaseInstance(absolutePath);
    throw warehouseOpenFailed(path, error);
  }
  const open = connection;
  let closed = false;
  return {
    kind: 'warehouse',
    connection: open,
    async close() {
      if (closed) return;
      closed = true;
      open.closeSync();
      await releaseInstance(absolutePath);
    },
  };
}

/**
 * Dates in the contract are UTC: casts such as `ts::DATE` in ad-hoc queries must not depend on
 * the machine's time zone. SESSION scope: a shared instance's other connections keep theirs.
 */
export async function utcSession(connection: DuckDBConnection): Promise<void> {
  await connection.run(`SET SESSION TimeZone = 'UTC'`);
}
