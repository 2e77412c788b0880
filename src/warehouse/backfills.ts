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

/** Records the planned slices as pending (already known slices keep their state). */
export async function planBackfillSlices(session: Session, id: string, slices: readonly BackfillSlicePlan[]): Promise<void> {
  for (let start = 0; start < slices.length; start += 500) {
    const batch = slices.slice(start, start + 500);
    const values = batch
      .map((_, i) => `($1, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}::DATE, $${i * 5 + 6}::DATE, 'pending', NULL, NULL)`)
      .join(', ');
    const params = batch.flatMap((s) => [s.sliceKey, s.stream, s.scopeId, s.windowFrom, s.windowTo]);
    await session.run(`INSERT INTO backfill_slices ${SLICE_COLUMNS} VALUES ${values} ON CONFLICT DO NOTHING`, [id, ...params]);
  }
}

/** Marks slices done; called by commitSlices inside the transaction that commits their data. */
export async function markBackfillSlicesDone(session: Session, slices: readonly BackfillSliceDone[]): Promise<void> {
  for (let start = 0; start < slices.length; start += 400) {
    const batch = slices.slice(start, start + 400);
    const values = batch
      .map((_, i) => {
        const p = i * 7;
        return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}::DATE, $${p + 6}::DATE, 'done', $${p + 7}::BIGINT, now())`;
      })
      .join(', ');
    const params = batch.flatMap((s) => [s.backfillId, s.sliceKey, s.stream, s.scopeId, s.windowFrom, s.windowTo, s.rowsWritten]);
    await session.run(
      `INSERT INTO backfill_slices ${SLICE_COLUMNS} VALUES ${values}
       ON CONFLICT (backfill_id, slice_key) DO UPDATE SET status = 'done', rows_written = excluded.rows_written, done_at = excluded.done_at`,
      params,
    );
  }
}

export async function finishBackfill(session: Session, id: string): Promise<void> {
  await session.run(`UPDATE backfills SET status = 'finished', finished_at = now() WHERE backfill_id = $1`, [id]);
}
