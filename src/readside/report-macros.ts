import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../warehouse/sql-files.js';

/**
 * The table macros the reports and checks read through (`summary_periods`, `series_day_totals`,
 * `additive_metrics`), kept in the warehouse by these migrations, run in this order (005
 * replaces summary_periods; the last, also included in migration 008, replaces
 * series_day_totals by the grain rule over series_daily); a later migration that adds or
 * replaces one joins this list.
 */
const REPORT_MACRO_FILES = [
  'migrations/003_report_macros.sql',
  'migrations/005_summary_periods_partial_months.sql',
  'migrations/006_additive_metrics.sql',
  'rollups/series-day-totals.sql',
];
const MACRO_NAMES = ['summary_periods', 'series_day_totals', 'additive_metrics'];

/** Whether a table or view named series_daily exists (the rollup, migration 008). */
async function hasSeriesDaily(connection: DuckDBConnection): Promise<boolean> {
  const found = await connection.runAndReadAll(
    `SELECT (SELECT count(*) FROM duckdb_tables() WHERE table_name = 'series_daily') + (SELECT count(*) FROM duckdb_views() WHERE view_name = 'series_daily')`,
  );
  return Number(found.getRows()[0]?.[0]) > 0;
}

/**
 * Creates the report macros on a connection whose database has no tables of its own (Parquet
 * views), and series_daily as a view of its definition over the series_points view, so the
 * reports read the same rollup as on the warehouse (the dry run has it already, as a table).
 */
export async function createReportMacros(connection: DuckDBConnection): Promise<void> {
  if (!(await hasSeriesDaily(connection))) await connection.run(sql('rollups/series-daily-view.sql'));
  for (const file of REPORT_MACRO_FILES) await connection.run(sql(file));
  await connection.run(sql(PEAK_HOURS_ABSENT));
}

/**
 * The peak-hours rollup (migration 009) exists only in a warehouse that has been migrated to
 * it: elsewhere empty stand-ins and `peak_hours_rolled_up()` false make the report read every
 * point, as it did before the rollup.
 */
const PEAK_HOURS_ABSENT = 'readside/peak-hours-absent.sql';

async function ensurePeakHoursRollup(connection: DuckDBConnection): Promise<void> {
  const found = await connection.runAndReadAll(`SELECT count(*) FROM duckdb_functions() WHERE function_name = 'peak_hours_rolled_up'`);
  if (Number(found.getRows()[0]?.[0]) === 0) await connection.run(sql(PEAK_HOURS_ABSENT));
}

/**
 * A warehouse last written by a version before these macros or the rollup has not been migrated
 * yet (read commands open it read-only and never migrate): the reports would fail with "does not
 * exist" until the next sync. The same macros, and series_daily as a view, are then created as
 * temporary ones, for this connection only, which a read-only database allows; the file is left
 * as it is.
 */
export async function ensureReportMacros(connection: DuckDBConnection): Promise<void> {
  const found = await connection.runAndReadAll(
    `SELECT count(DISTINCT function_name) FROM duckdb_functions() WHERE function_name IN (${MACRO_NAMES.map((name) => `'${name}'`).join(', ')})`,
  );
  const rollup = await hasSeriesDaily(connection);
  if (Number(found.getRows()[0]?.[0]) !== MACRO_NAMES.length || !rollup) {
    if (!rollup) await connection.run(sql('rollups/series-daily-view.sql').replace('CREATE VIEW', 'CREATE TEMP VIEW'));
    for (const file of REPORT_MACRO_FILES) await connection.run(sql(file).replaceAll('CREATE OR REPLACE MACRO', 'CREATE OR REPLACE TEMP MACRO'));
  }
  await ensurePeakHoursRollup(connection);
}
