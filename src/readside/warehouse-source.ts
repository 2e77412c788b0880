import type { DuckDBConnection } from '@duckdb/node-api';
import { ensureReportMacros } from './report-macros.js';
import { openReadConnection, type ReadConnectionOptions } from '../warehouse/read-connection.js';

/** Where read-side SQL runs: the warehouse file (read-only) or views over the Parquet export. */
export interface QuerySource {
  readonly kind: 'warehouse' | 'parquet';
  readonly connection: DuckDBConnection;
  close(): Promise<void>;
}

export type WarehouseSourceOptions = Omit<ReadConnectionOptions, 'sealed'>;

/**
 * A read-only connection to the warehouse. Fails with VENUE_WAREHOUSE_MISSING when the file
 * does not exist (nothing synced yet) and VENUE_WAREHOUSE_LOCKED while another process writes it.
 * Sealed: the instance reads no other file, so queries cannot write files either.
 */
export async function openWarehouseSource(path: string, options: WarehouseSourceOptions = {}): Promise<QuerySource> {
  const { connection, close } = await openReadConnection(path, { ...options, sealed: true });
  try {
    await ensureReportMacros(connection);
  } catch (error) {
    await close();
    throw error;
  }
  return { kind: 'warehouse', connection, close };
}
