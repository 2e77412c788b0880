import type { SeriesColumns, SummaryColumns } from '../normalize/columns.js';
import type { AccountRow } from './accounts.js';
import type { RoleKind, RoleRow } from './roles.js';

/**
 * Everything one slice (stream × venue/project × window) commits, in one transaction with the
 * other slices of its group: the window's rows replace what the warehouse held for that venue,
 * stream and window (or a roles / accounts snapshot is applied); the cursor moves; the backfill
 * slice is marked done.
 *
 * A window whose stored rows already equal the batch is not rewritten (its rows keep their
 * run_id). Rows outside the region the slice owns are not stored (the neighbouring window owns
 * them). Slices of one group that overlap on the same venue and stream apply in group order.
 * A batch holding the same key twice with different values fails the whole group.
 */
export interface SliceCommit {
  readonly stream: string;
  /** Venue id (analytics streams) or project id. */
  readonly scopeId: string;
  /** Inclusive calendar dates (UTC) of the window that was extracted. */
  readonly windowFrom: string;
  readonly windowTo: string;
  /**
   * Replaces `series_points` of (scopeId, stream, seriesGrain) with ts in
   * [windowFrom 00:00Z, windowTo+1 00:00Z). Rows of the other granularity in that range are not
   * touched: the day and hour grains of a stream live side by side.
   */
  readonly series?: SeriesColumns;
  /** The granularity `series` replaces; every one of its rows must have it. 'day' when absent. */
  readonly seriesGrain?: 'day' | 'hour';
  /**
   * The cursor's stream key when it is not `stream`: the hour grain of a history stream keeps a
   * cursor of its own (`<stream>@hour`, see the planner's streamKey).
   */
  readonly cursorStream?: string;
  /**
   * Replaces `summary_values` of (venue, stream) whose period_start lies in [windowFrom, windowTo]
   * and whose period belongs to `grain`: 'day' rows have period_end = period_start; 'month' rows
   * have period_end > period_start, plus single-day rows when `ownsSingleDayPeriods` (month-only
   * configs, where a month cut short at its first day is the only owner of that row).
   */
  readonly summaries?: {
    readonly rows: SummaryColumns;
    readonly grain: 'day' | 'month';
    readonly ownsSingleDayPeriods: boolean;
  };
  /**
   * The roles of venue or project scopeId as the API lists them at `at`: versions roles.ts
   * against the open ones (a gone or changed role is closed at `at`, a new one opened).
   */
  readonly roles?: { readonly kind: RoleKind; readonly rows: readonly RoleRow[]; readonly at: Date };
  /** Accounts seen at `at`: inserted, updated when changed, last_seen_at moved (see accounts.ts). */
  readonly accounts?: { readonly rows: readonly AccountRow[]; readonly at: Date };
  /** How the stream's cursor for scopeId moves with this commit (never backwards). */
  readonly cursor?: CursorMove;
  /** Marks this slice done in a backfill's progress table. */
  readonly backfill?: { readonly backfillId: string; readonly sliceKey: string };
}

export type CursorMove =
  /** Nightly sync: cursor = max(cursor, date). */
  | { readonly mode: 'advance'; readonly date: string }
  /**
   * Backfill: extends the cursor to `date` only when the window touches it
   * (windowFrom <= (cursor ?? baseline) + 1 day), so a backfill never leaves a hole behind a cursor.
   */
  | { readonly mode: 'extend'; readonly date: string; readonly baseline: string };
