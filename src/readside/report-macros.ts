import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../warehouse/sql-files.js';

/**
 * The table macros the reports read through (`summary_periods`, `series_day_totals`), kept in
 * the warehouse by this migration; a later migration that replaces them goes here instead.
 */
const REPORT_MACROS = 'migrations/003_report_macros.sql';
const MACRO_NAMES = ['summary_periods', 'series_day_totals'];

/** Creates the report macros on a connection whose database has no tables of its own (Parquet views). */
export async function createReportMacros(connection: DuckDBConnection): Promise<void> {
  await connection.run(sql(REPORT_MACROS));
}

/**
 * A warehouse last written by a version before these macros has not been migrated yet (read
 * commands open it read-only and never migrate): the reports would fail with "does not exist"
 * until the next sync. The same macros are then created as temporary ones, for this connection
 * only, which a read-only database allows; the file is left as it is.
 */
export async function ensureReportMacros(connection: DuckDBConnection): Promise<void> {
  const found = await connection.runAndReadAll(
    `SELECT count(DISTINCT function_name) FROM duckdb_functions() WHERE function_name IN (${MACRO_NAMES.map((name) => `'${name}'`).join(', ')})`,
  );
  if (Number(found.getRows()[0]?.[0]) === MACRO_NAMES.length) return;
  await connection.run(sql(REPORT_MACROS).replaceAll('CREATE OR REPLACE MACRO', 'CREATE OR REPLACE TEMP MACRO'));
}
