import type { SliceCommit } from './slice-commit.js';
import type { Session } from './session.js';
import { validateCommits } from './validate-commits.js';
import { planRounds } from './plan-rounds.js';
import { replaceSeriesRound } from './series-round.js';
import { replaceSummaryRound } from './summary-round.js';
import { addRowsBySlice, type RoundOutcome } from './round-outcome.js';
import { applyCursorMoves, type CursorMoveRequest } from './cursors.js';
import { markBackfillSlicesDone, type BackfillSliceDone } from './backfills.js';
import { applyRolesSnapshot } from './roles.js';
import { holdKey, readRoleHolds, type SnapshotHeld } from './role-holds.js';
import { upsertAccounts } from './accounts.js';

export interface CommitSlicesResult {
  /**
   * Rows inserted: 0 when every window already held exactly these rows. Snapshots count the
   * role versions opened and closed, and the accounts inserted and updated.
   */
  readonly rowsWritten: number;
  /** Windows (series: slice; summaries: slice × venue) whose rows were replaced. */
  readonly changedWindows: number;
  /** Windows whose stored rows already equalled the batch: not rewritten. */
  readonly unchangedWindows: number;
  /** Rows outside the region their slice owns (another window owns them): not stored. */
  readonly rowsOutsideWindow: number;
  /** Rows written per given slice, in the order given. */
  readonly rowsBySlice: readonly number[];
  /** Cursors that moved. */
  readonly cursorsMoved: number;
  /** Roles snapshots held (not applied), and held ones a later run confirmed (applied now): docs/warehouse.md, "Held snapshots". */
  readonly snapshots: readonly SnapshotNote[];
}

/** A roles snapshot held back, or applied now that a later run read it again. */
export type SnapshotNote = SnapshotHeld & { readonly state: 'held' | 'confirmed' };

/**
 * Commits a group of slices inside the caller's transaction (Warehouse.commitSlices opens
 * it): replaces the changed windows, applies the snapshots in group order, moves the cursors,
 * marks backfill slices done.
 */
export async function commitSlicesIn(session: Session, runId: string, commits: readonly SliceCommit[]): Promise<CommitSlicesResult> {
  validateCommits(commits);
  const rowsBySlice = new Map<number, number>();
  let rowsWritten = 0;
  let changedWindows = 0;
  let unchangedWindows = 0;
  let rowsOutsideWindow = 0;
  const add = (outcome: RoundOutcome) => {
    rowsWritten += outcome.rowsWritten;
    changedWindows += outcome.changedWindows;
    unchangedWindows += outcome.unchangedWindows;
    rowsOutsideWindow += outcome.rowsOutsideWindow;
    for (const [slice, rows] of outcome.rowsBySlice) addRowsBySlice(rowsBySlice, slice, rows);
  };

  for (const round of planRounds(commits)) {
    const slices = round.map((index): [number, SliceCommit] => [index, commits[index]]);
    if (slices.some(([, commit]) => commit.series)) add(await replaceSeriesRound(session, runId, slices));
    if (slices.some(([, commit]) => commit.summaries)) add(await replaceSummaryRound(session, runId, slices));
  }

  // Held roles answers are few (normally none): read once for the group, not once per scope.
  const holds = commits.some((commit) => commit.roles) ? await readRoleHolds(session) : new Map();
  const snapshots: SnapshotNote[] = [];
  for (const [index, commit] of commits.entries()) {
    let rows = 0;
    if (commit.roles) {
      const { kind, rows: roles, at } = commit.roles;
      const outcome = await applyRolesSnapshot(session, kind, commit.scopeId, roles, runId, at, holds.get(holdKey(kind, commit.scopeId)));
      rows += outcome.opened + outcome.closed;
      if (outcome.snapshot) snapshots.push({ state: outcome.snapshot.state, ...outcome.snapshot.record });
    }
    if (commit.accounts) {
      const outcome = await upsertAccounts(session, commit.accounts.rows, runId, commit.accounts.at);
      rows += outcome.inserted + outcome.updated;
    }
    if (commit.roles || commit.accounts) {
      rowsWritten += rows;
      addRowsBySlice(rowsBySlice, index, rows);
    }
  }

  const moves: CursorMoveRequest[] = commits.flatMap((commit) =>
    commit.cursor ? [{ stream: commit.cursorStream ?? commit.stream, scopeId: commit.scopeId, windowFrom: commit.windowFrom, move: commit.cursor }] : [],
  );
  const cursorsMoved = await applyCursorMoves(session, runId, moves);

  const done = new Map<string, BackfillSliceDone>();
  commits.forEach((commit, index) => {
    if (!commit.backfill) return;
    const key = JSON.stringify([commit.backfill.backfillId, commit.backfill.sliceKey]);
    const rows = (done.get(key)?.rowsWritten ?? 0) + (rowsBySlice.get(index) ?? 0);
    done.set(key, {
      ...commit.backfill,
      stream: commit.stream,
      scopeId: commit.scopeId,
      windowFrom: commit.windowFrom,
      windowTo: commit.windowTo,
      rowsWritten: rows,
    });
  });
  await markBackfillSlicesDone(session, [...done.values()]);

  return {
    rowsWritten,
    changedWindows,
    unchangedWindows,
    rowsOutsideWindow,
    rowsBySlice: commits.map((_, index) => rowsBySlice.get(index) ?? 0),
    cursorsMoved,
    snapshots,
  };
}
