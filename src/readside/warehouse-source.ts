import type { DuckDBConnection } from '@duckdb/node-api';
import { DEFAULT_QUERY_MEMORY_LIMIT } from '../config/schema.js';
import { lockDown } from './lock-down.js';
import { ensureReportMacros } from './report-macros.js';
import { openReadConnection, type ReadConnectionOptions } from '../warehouse/read-connection.js';
import type { DryRun } from './dry-run.js';
import { sessionOf } from '../warehouse/session.js';
import { BUILT_IN_LABEL_INPUT, createVenueLabels, type VenueLabelInput } from '../venue-names/index.js';

/** Where read-side SQL runs: the warehouse file (read-only) or views over the Parquet export. */
export interface QuerySource {
  readonly kind: 'warehouse' | 'parquet';
  readonly connection: DuckDBConnection;
  /** A source that may open files (the lake's): where a statement that is not a SELECT runs first (dry-run.ts). */
  readonly dryRun?: DryRun;
  close(): Promise<void>;
}

export type WarehouseSourceOptions = Omit<ReadConnectionOptions, 'sealed'> & {
  /** query.memoryLimit, set on a read command's own instance (not on one shared with serve's writers). */
  readonly memoryLimit?: string;
  /** The config's venue names and venue streams (src/venue-names); default: none, the built-in streams. */
  readonly labels?: VenueLabelInput;
};

/**
 * A read-only connection to the warehouse. Fails with VENUE_WAREHOUSE_MISSING when the file
 * does not exist (nothing synced yet) and VENUE_WAREHOUSE_LOCKED while another process writes it.
 * Sealed: the instance reads no other file, so queries cannot write files either; a read
 * command's own instance is also bounded in memory and its configuration locked (lock-down.ts).
 * The venue labels (`venue_labels`, `venue_label(id)`) are made on the connection, in memory,
 * before it is locked.
 */
export async function openWarehouseSource(path: string, options: WarehouseSourceOptions = {}): Promise<QuerySource> {
  const { memoryLimit, labels, ...readOptions } = options;
  const { connection, close } = await openReadConnection(path, { ...readOptions, sealed: true });
  try {
    await ensureReportMacros(connection);
    await createVenueLabels(sessionOf(connection), labels ?? BUILT_IN_LABEL_INPUT);
    // Inside serve the instance is its writers' too: their settings are theirs to keep.
    if (!(options.shareWithWriters ?? false)) await lockDown(connection, { memoryLimit: memoryLimit ?? DEFAULT_QUERY_MEMORY_LIMIT });
  } catch (error) {
    await close();
    throw error;
  }
  return { kind: 'warehouse', connection, close };
}
