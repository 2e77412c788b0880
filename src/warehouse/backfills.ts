import { createHash } from 'node:crypto';
import type { Session } from './session.js';

export interface BackfillSlicePlan {
  readonly sliceKey: string;
  readonly stream: string;
  readonly scopeId: string;
  readonly windowFrom: string;
  readonly windowTo: string;
}

export interface BackfillState {
  readonly backfillId: string;
  /** True when this call recorded the backfill: nothing of it was done before. */
  readonly created: boolean;
  /** True when an earlier run of the same command finished it (see resetBackfill). */
  readonly finished: boolean;
  /** Slice keys already committed by an earlier run of the same command: skip them. */
  readonly doneSliceKeys: ReadonlySet<string>;
}

export interface BackfillSliceDone extends BackfillSlicePlan {
  readonly backfillId: string;
  readonly rowsWritten: number;
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` name the same backfill. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Deterministic id of a backfill: the same command with the same (normalized) parameters
 * finds its progress again. Callers normalize what should not matter (order of venues…).
 */
export function backfillId(command: string, params: unknown): string {
  const digest = createHash('sha256').update(`${command}\n${canonicalJson(params)}`).digest('hex');
  return `bf-${digest.slice(0, 20)}`;
}

/** `stream|scope|from|to`: unique within a backfill. */
export function backfillSliceKey(stream: string, scopeId: string, windowFrom: string, windowTo: string): string {
  return `${stream}|${scopeId}|${windowFrom}|${windowTo}`;
}

/**
 * Finds the backfill `id` (by default derived from command and params) or records it. The
 * state says what an earlier run of the same command did: its done slices are skipped on
 * resume; a finished backfill is left as it is (resetBackfill starts it over).
 */
export async function openBackfill(
  session: Session,
  command: string,
  params: unknown,
  id: string = backfillId(command, params),
): Promise<BackfillState> {
  const existing = await session.all<{ status: string }>('SELECT status FROM backfills WHERE backfill_id = $1', [id]);
  if (existing.length === 0) {
    await session.run(
      `INSERT INTO backfills (backfill_id, command, params, created_at, status) VALUES ($1, $2, $3::JSON, now(), 'running')`,
      [id, command, canonicalJson(params ?? {})],
    );
    return { backfillId: id, created: true, finished: false, doneSliceKeys: new Set() };
  }
  return {
    backfillId: id,
    created: false,
    finished: existing[0].status === 'finished',
    doneSliceKeys: await doneSliceKeys(session, id),
  };
}

/** Forgets a backfill's progress (a forced re-run): every slice is to be done again. */
export async function resetBackfill(session: Session, id: string): Promise<void> {
  await session.run('DELETE FROM backfill_slices WHERE backfill_id = $1', [id]);
  await session.run(`UPDATE backfills SET status = 'running', finished_at = NULL WHERE backfill_id = $1`, [id]);
}

export async function doneSliceKeys(session: Pick<Session, 'all'>, id: string): Promise<Set<string>> {
  const rows = await session.all<{ slice_key: string }>(
    `SELECT slice_key FROM backfill_slices WHERE backfill_id = $1 AND status = 'done'`,
    [id],
  );
  return new Set(rows.map((row) => row.slice_key));
}

const SLICE_COLUMNS = '(backfill_id, slice_key, stream, scope_id, window_from, window_to, status, rows_written, done_at)';

/**
 * Stages slice rows through an appender: a multi-row VALUES statement binds seven parameters
 * per slice, which costs more than the rest of a commit on groups of a thousand small slices.
 */
async function stageSlices(
  session: Session,
  slices: readonly (BackfillSlicePlan & { readonly backfillId: string; readonly rowsWritten: number | null })[],
): Promise<void> {
  await session.run(
    `CREATE OR REPLACE TEMP TABLE stage_backfill_slices (backfill_id VARCHAR, slice_key VARCHAR, stream VARCHAR,
       scope_id VARCHAR, window_from DATE, window_to DATE, rows_written INTEGER)`,
  );
  const appender = await session.connection.createAppender('stage_backfill_slices', 'main', 'temp');
  try {
    for (const slice of slices) {
      appender.appendVarchar(slice.backfillId);
      appender.appendVarchar(slice.sliceKey);
      appender.appendVarchar(slice.stream);
      appender.appendVarchar(slice.scopeId);
      appender.appendVarchar(slice.windowFrom);
      appender.appendVarchar(slice.windowTo);
      if (slice.rowsWritten === null) appender.appendNull();
      else appender.appendInteger(slice.rowsWritten);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Records the planned slices as pending (already known slices keep their state). */
export async function planBackfillSlices(session: Session, id: string, slices: readonly BackfillSlicePlan[]): Promise<void> {
  if (slices.length === 0) return;
  await stageSlices(session, slices.map((slice) => ({ ...slice, backfillId: id, rowsWritten: null })));
  await session.run(
    `INSERT INTO backfill_slices ${SLICE_COLUMNS}
     SELECT DISTINCT ON (backfill_id, slice_key) backfill_id, slice_key, stream, scope_id, window_from, window_to, 'pending', NULL, NULL
     FROM stage_backfill_slices
     ON CONFLICT DO NOTHING`,
  );
}

/**
 * Marks slices done; called by commitSlices inside the transaction that commits their data.
 * Keys must be unique (the caller merges repeats).
 */
export async function markBackfillSlicesDone(session: Session, slices: readonly BackfillSliceDone[]): Promise<void> {
  if (slices.length === 0) return;
  await stageSlices(session, slices);
  await session.run(
    `INSERT INTO backfill_slices ${SLICE_COLUMNS}
     SELECT backfill_id, slice_key, stream, scope_id, window_from, window_to, 'done', rows_written, now()
     FROM stage_backfill_slices
     ON CONFLICT (backfill_id, slice_key) DO UPDATE SET status = 'done', rows_written = excluded.rows_written, done_at = excluded.done_at`,
  );
}

export async function finishBackfill(session: Session, id: string): Promise<void> {
  await session.run(`UPDATE backfills SET status = 'finished', finished_at = now() WHERE backfill_id = $1`, [id]);
}
