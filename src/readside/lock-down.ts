import type { DuckDBConnection } from '@duckdb/node-api';
import { literal } from '../export/sql-text.js';
import { sql } from '../warehouse/sql-files.js';

/** What a read command's DuckDB may still reach once sealed. */
export interface LockDown {
  /** DuckDB's memory limit, e.g. "1GB" (query.memoryLimit). */
  readonly memoryLimit: string;
  /**
   * The only files the instance may open (Parquet views): exactly the data files the views list,
   * by path. No folder: a new file anywhere (a COPY target, an ATTACHed database, a log, the
   * manifest, the warehouse) is refused by DuckDB's own file check. Absent: the instance was
   * created without access to any other file (the warehouse, opened read-only).
   */
  readonly files?: readonly string[];
}

/**
 * Seals a read command's connection: the memory limit, no spilling, no extension loading,
 * only `files` reachable, and the configuration locked so that no statement can undo any of
 * it. Runs after the views and macros exist, before any statement a user typed.
 */
export async function lockDown(connection: DuckDBConnection, limits: LockDown): Promise<void> {
  // A second reader of the same warehouse in one process shares its instance, sealed already.
  const locked = await connection.runAndReadAll(`SELECT current_setting('lock_configuration') AS locked`);
  if (locked.getRows()[0]?.[0] === true) return;
  await connection.run(`SET memory_limit = ${literal(limits.memoryLimit)}`);
  if (limits.files !== undefined) {
    // DuckDB refuses an empty list; a path that cannot exist stands for "none".
    const files = limits.files.length === 0 ? ['/nonexistent/venue-etl-no-file'] : limits.files;
    await connection.run(`SET allowed_paths = [${files.map(literal).join(', ')}]`);
    await connection.run('SET enable_external_access = false');
  }
  await connection.run(sql('readside/lock-down.sql'));
}
