import type { DuckDBValue } from '@duckdb/node-api';
import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';
import { peakHoursOfReset } from './peak-hours-rollup.js';
import { refreshSeriesDailyOfReset, seriesDailyDaysOfReset } from './series-daily.js';

/** What `venue-etl reset` forgets. */
export interface ResetSelection {
  readonly streams: readonly string[];
  /** Venue or project ids; undefined: every scope. */
  readonly scopes?: readonly string[];
  /** Forget from this day on (cursors move back to the day before); undefined: everything. */
  readonly from?: string;
  /** Last day whose rows are deleted (with `rows`); undefined: open end. */
  readonly to?: string;
  /** Delete the series and summary rows of the selection too. */
  readonly rows: boolean;
}

export interface ResetCounts {
  readonly stream: string;
  /** Cursors forgotten (no `from`) or moved back. */
  readonly cursors: number;
  readonly seriesRows: number;
  readonly summaryRows: number;
}

function scopeParams(selection: ResetSelection): [string, string | null] {
  return [selection.streams.join(','), selection.scopes === undefined ? null : selection.scopes.map((s) => s.toLowerCase()).join(',')];
}

/** Per stream, what `reset` would change: read-only, for the preview. */
export async function planReset(session: Pick<Session, 'all'>, selection: ResetSelection): Promise<ResetCounts[]> {
  const params: DuckDBValue[] = [...scopeParams(selection), selection.from ?? null, selection.to ?? null, selection.rows];
  const rows = await session.all<{ stream: string; cursors: number; series_rows: number; summary_rows: number }>(sql('warehouse/reset-plan.sql'), params);
  return rows.map((row) => ({ stream: row.stream, cursors: row.cursors, seriesRows: row.series_rows, summaryRows: row.summary_rows }));
}

/** The reset itself, inside the caller's transaction; returns the totals changed. */
export async function resetIn(session: Session, selection: ResetSelection, runId: string): Promise<Omit<ResetCounts, 'stream'>> {
  const [streams, scopes] = scopeParams(selection);
  const from = selection.from ?? null;
  const to = selection.to ?? null;
  const cursors =
    from === null
      ? await session.run(sql('warehouse/reset-cursors-forget.sql'), [streams, scopes])
      : await session.run(sql('warehouse/reset-cursors.sql'), [streams, scopes, from, runId]);
  if (cursors > 0) await markTableChanged(session, 'sync_cursors');
  const params = [streams, scopes, from, to];
  if (selection.rows) {
    // The marks first: they read the rows the deletes below remove.
    await session.run(sql('warehouse/export-changes-reset-series.sql'), params);
    await session.run(sql('warehouse/export-changes-reset-summaries.sql'), params);
    await seriesDailyDaysOfReset(session, params);
  }
  const peakHours = selection.rows ? peakHoursOfReset(session, params) : undefined;
  await peakHours?.before();
  const seriesRows = selection.rows ? await session.run(sql('warehouse/reset-series.sql'), params) : 0;
  await peakHours?.after();
  if (selection.rows) await refreshSeriesDailyOfReset(session);
  const summaryRows = selection.rows ? await session.run(sql('warehouse/reset-summaries.sql'), params) : 0;
  return { cursors, seriesRows, summaryRows };
}
