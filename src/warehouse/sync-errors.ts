import type { Session } from './session.js';

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
    await session.run(
      `INSERT INTO sync_errors (run_id, stream, scope_id, window_from, window_to, error_code, message, "at")
       VALUES ($1, $2, $3, $4::DATE, $5::DATE, $6, $7, coalesce($8::TIMESTAMPTZ, now()))`,
      [
        runId,
        error.stream,
        error.scopeId,
        error.windowFrom ?? null,
        error.windowTo ?? null,
        error.errorCode,
        error.message,
        error.at ? error.at.toISOString() : null,
      ],
    );
  }
}

export async function readSyncErrors(session: Pick<Session, 'all'>, runId?: string): Promise<SyncErrorRow[]> {
  const select = `SELECT run_id, stream, scope_id, strftime(window_from, '%Y-%m-%d') AS window_from,
      strftime(window_to, '%Y-%m-%d') AS window_to, error_code, message,
      strftime("at" AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%gZ') AS "at" FROM sync_errors`;
  const rows =
    runId === undefined
      ? await session.all(`${select} ORDER BY "at", run_id`)
      : await session.all(`${select} WHERE run_id = $1 ORDER BY "at"`, [runId]);
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
