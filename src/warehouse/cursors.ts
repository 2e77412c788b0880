import type { CursorMove } from './slice-commit.js';
import type { Session } from './session.js';
import { addDays } from '../calendar/index.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

export interface CursorRow {
  readonly stream: string;
  readonly scopeId: string;
  /** Data of (stream, scope) is complete up to and including this date (`YYYY-MM-DD`). */
  readonly cursorDate: string;
  readonly updatedAt: string;
  readonly runId: string;
}

/** A cursor move with what it needs to decide: the slice's key and window start. */
export interface CursorMoveRequest {
  readonly stream: string;
  readonly scopeId: string;
  /** Start of the window the move commits (extend only); defaults to the move's date. */
  readonly windowFrom?: string;
  readonly move: CursorMove;
}

interface CursorRecord {
  stream: string;
  scope_id: string;
  cursor_date: string;
  updated_at: string;
  run_id: string;
}

export async function readCursors(session: Pick<Session, 'all'>, stream?: string): Promise<CursorRow[]> {
  const rows = await session.all<CursorRecord & Record<string, unknown>>(sql('warehouse/cursors-read.sql'), [stream ?? null]);
  return rows.map((row) => ({
    stream: row.stream,
    scopeId: row.scope_id,
    cursorDate: row.cursor_date,
    updatedAt: row.updated_at,
    runId: row.run_id,
  }));
}

/**
 * The rules of CursorMove, applied to a starting cursor (undefined: none yet). Advances take
 * the maximum; extends, in window order, move the cursor to their date only when their window
 * touches it (windowFrom <= (cursor ?? baseline) + 1 day), so a backfill that skipped a range
 * never claims it. Never backwards.
 */
export function moveCursor(start: string | undefined, requests: readonly CursorMoveRequest[]): string | undefined {
  let cursor = start;
  for (const { move } of requests) {
    if (move.mode === 'advance' && (cursor === undefined || move.date > cursor)) cursor = move.date;
  }
  const extends_ = requests
    .flatMap(({ windowFrom, move }) => (move.mode === 'extend' ? [{ windowFrom: windowFrom ?? move.date, move }] : []))
    .sort((a, b) => (a.windowFrom < b.windowFrom ? -1 : a.windowFrom > b.windowFrom ? 1 : 0));
  for (const { windowFrom, move } of extends_) {
    const effective = cursor ?? move.baseline;
    if (windowFrom <= addDays(effective, 1) && move.date > effective) cursor = move.date;
  }
  return cursor;
}

/**
 * Applies the cursor moves of a commit inside its transaction; writes only cursors that
 * moved (an unmoved cursor keeps its updated_at and run_id). Returns how many moved.
 */
export async function applyCursorMoves(session: Session, runId: string, requests: readonly CursorMoveRequest[]): Promise<number> {
  if (requests.length === 0) return 0;
  const byKey = new Map<string, CursorMoveRequest[]>();
  for (const request of requests) {
    const key = JSON.stringify([request.stream, request.scopeId]);
    const list = byKey.get(key) ?? [];
    list.push(request);
    byKey.set(key, list);
  }
  const streams = [...new Set(requests.map((request) => request.stream))];
  const current = new Map<string, string>();
  const rows = await session.all<{ stream: string; scope_id: string; cursor_date: string }>(sql('warehouse/cursors-of-streams.sql'), [JSON.stringify(streams)]);
  for (const row of rows) current.set(JSON.stringify([row.stream, row.scope_id]), row.cursor_date);
  const moved: [string, string, string][] = [];
  for (const [key, list] of byKey) {
    const before = current.get(key);
    const after = moveCursor(before, list);
    if (after !== undefined && after !== before) moved.push([list[0].stream, list[0].scopeId, after]);
  }
  if (moved.length === 0) return 0;
  // Staged through an appender and written in one statement: a multi-row VALUES upsert binds
  // three parameters per cursor, which measured ~8x slower (80-140 ms for 1,500 cursors).
  await session.run(sql('warehouse/cursors-staging.sql'));
  const appender = await session.connection.createAppender('stage_cursor_moves', 'main', 'temp');
  try {
    for (const [stream, scopeId, date] of moved) {
      appender.appendVarchar(stream);
      appender.appendVarchar(scopeId);
      appender.appendVarchar(date);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  await session.run(sql('warehouse/cursors-apply.sql'), [runId]);
  await markTableChanged(session, 'sync_cursors');
  return moved.length;
}

/** Per stream, its oldest cursor (`YYYY-MM-DD`): what freshness is measured from. */
export async function readStreamCursors(session: Pick<Session, 'all'>): Promise<{ stream: string; oldestCursor: string }[]> {
  const rows = await session.all<{ stream: string; oldest_cursor: string }>(sql('warehouse/streams-oldest-cursor.sql'));
  return rows.map((row) => ({ stream: row.stream, oldestCursor: row.oldest_cursor }));
}

/** The columns of warehouse tables, in order: name and DuckDB type per table. */
export async function readTableColumns(session: Pick<Session, 'all'>, tables: readonly string[]): Promise<Map<string, { name: string; type: string }[]>> {
  const rows = await session.all<{ table_name: string; column_name: string; data_type: string }>(sql('warehouse/table-columns.sql'), [tables.join(',')]);
  const columns = new Map<string, { name: string; type: string }[]>();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), { name: row.column_name, type: row.data_type }]);
  return columns;
}
