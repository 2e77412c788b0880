import type { Session } from './session.js';
import { sql } from './sql-files.js';

/**
 * Marks of what a commit changed, for the incremental Parquet export (sql/migrations/
 * 004_export_changes.sql). Every write to an exported table calls one of these in its own
 * transaction, so a commit and its marks are durable together: a crash between a commit and
 * the next export loses no change. Forgetting them after an export opens the warehouse itself,
 * so it lives in forget-export-changes.ts: every writer imports this file, and a file that
 * imports the opener from here would close an import circle through warehouse.ts.
 */

/** The tables without partitions whose writes are marked per table. */
export type UnpartitionedTable =
  | 'venue_roles'
  | 'project_roles'
  | 'accounts'
  | 'upsert_events'
  | 'users'
  | 'venues'
  | 'user_venue_history'
  | 'user_venue_agreements'
  | 'sync_cursors'
  | 'sync_runs'
  | 'sync_errors';

export async function markTableChanged(session: Session, table: UnpartitionedTable): Promise<void> {
  await session.run(sql('warehouse/export-changes-table.sql'), [table]);
}

/** The series_points partitions of the windows in changed_series_windows (a replace round). */
export async function markSeriesWindowsChanged(session: Session): Promise<void> {
  await session.run(sql('warehouse/export-changes-series.sql'));
}

/** The summary_values partitions of the windows in changed_summary_windows. */
export async function markSummaryWindowsChanged(session: Session): Promise<void> {
  await session.run(sql('warehouse/export-changes-summaries.sql'));
}
