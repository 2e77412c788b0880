import { createHash } from 'node:crypto';
import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { SliceKeySet } from '../plan/index.js';

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
  readonly doneSliceKeys: SliceKeySet;
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
  const digest = createHash('sha256')
    .update(`${command}\n${canonicalJson(params)}`)
    .digest('hex');
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
export async function openBackfill(session: Session, command: string, params: unknown, id: string = backfillId(command, params)): Promise<BackfillState> {
  const existing = await session.all<{ status: string }>(sql('warehouse/backfill-status.sql'), [id]);
  if (existing.length === 0) {
    await session.run(sql('warehouse/backfill-insert.sql'), [id, command, canonicalJson(params ?? {})]);
    return { backfillId: id, created: true, finished: false, doneSliceKeys: new SliceKeySet() };
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
  await session.run(sql('warehouse/backfill-slices-forget.sql'), [id]);
  await session.run(sql('warehouse/backfill-restart.sql'), [id]);
}

/**
 * The done slices' keys, read a chunk at a time into a compact set, sealed once read: a 2-year,
 * 1,000-venue backfill resumed near its end has ~246,000 of them (row objects for all of them at
 * once, then a Set of the strings, were ~31 MB of heap; the sealed set of 252,000 is 1.5 MB).
 */
export async function doneSliceKeys(session: Pick<Session, 'connection'>, id: string): Promise<SliceKeySet> {
  const done = new SliceKeySet();
  const result = await session.connection.stream(sql('warehouse/backfill-done-slices.sql'), [id]);
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const key of chunk.getColumnValues(0)) done.add(String(key));
  }
  done.seal();
  return done;
}

/** Stages slice rows through an appender (see backfill-slices-staging.sql for why). */
async function stageSlices(
  session: Session,
  slices: readonly (BackfillSlicePlan & { readonly backfillId: string; readonly rowsWritten: number | null })[],
): Promise<void> {
  await session.run(sql('warehouse/backfill-slices-staging.sql'));
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
  await stageSlices(
    session,
    slices.map((slice) => ({ ...slice, backfillId: id, rowsWritten: null })),
  );
  await session.run(sql('warehouse/backfill-slices-plan.sql'));
}

/**
 * Marks slices done; called by commitSlices inside the transaction that commits their data.
 * Keys must be unique (the caller merges repeats).
 */
export async function markBackfillSlicesDone(session: Session, slices: readonly BackfillSliceDone[]): Promise<void> {
  if (slices.length === 0) return;
  await stageSlices(session, slices);
  await session.run(sql('warehouse/backfill-slices-done.sql'));
}

export async function finishBackfill(session: Session, id: string): Promise<void> {
  await session.run(sql('warehouse/backfill-finish.sql'), [id]);
}
