import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

/** A slice that failed: recorded so `status` can show it and the next run retries it. */
export interface SyncErrorRecord {
  readonly stream: string;
  readonly scopeId: string;
  readonly windowFrom?: string | null;
  readonly windowTo?: string | null;
  /** The EtlError code (`VENUE_API_AUTH`, …). */
  readonly errorCode: string;
  /** Already scrubbed of secrets by the caller: stored verbatim. */
  readonly message: string;
  readonly at?: Date;
}

export interface SyncErrorRow extends Required<Omit<SyncErrorRecord, 'at'>> {
  readonly runId: string;
  readonly at: string;
}

export async function recordSyncErrors(session: Session, runId: string, errors: readonly SyncErrorRecord[]): Promise<void> {
  for (const error of errors) {
    await session.run(sql('warehouse/sync-error-insert.sql'), [
      runId,
      error.stream,
      error.scopeId,
      error.windowFrom ?? null,
      error.windowTo ?? null,
      error.errorCode,
      error.message,
      error.at ? error.at.toISOString() : null,
    ]);
  }
  if (errors.length > 0) await markTableChanged(session, 'sync_errors');
}

export async function readSyncErrors(session: Pick<Session, 'all'>, runId?: string): Promise<SyncErrorRow[]> {
  const rows = await session.all(sql('warehouse/sync-errors-read.sql'), [runId ?? null]);
  return rows.map((row) => ({
    runId: String(row.run_id),
    stream: String(row.stream),
    scopeId: String(row.scope_id),
    windowFrom: row.window_from === null ? null : String(row.window_from),
    windowTo: row.window_to === null ? null : String(row.window_to),
    errorCode: String(row.error_code),
    message: String(row.message),
    at: String(row.at),
  }));
}
