import type { SliceCommit } from './slice-commit.js';
import { invalidBatch } from './errors.js';
import { isCalendarDate } from '../calendar/index.js';

function where(commit: SliceCommit, index: number): Record<string, unknown> {
  return { slice: index, stream: commit.stream, scopeId: commit.scopeId, windowFrom: commit.windowFrom, windowTo: commit.windowTo };
}

function sameLength(columns: readonly { readonly length: number }[]): boolean {
  return columns.every((column) => column.length === columns[0].length);
}

/**
 * Cheap structural checks before a transaction starts: a group that fails here touches
 * nothing. Per-row checks (granularity values, finite timestamps) run in the staging loops.
 */
export function validateCommits(commits: readonly SliceCommit[]): void {
  commits.forEach((commit, index) => {
    // Built for every slice only because it is small; errors are the rare path.
    const at = where(commit, index);
    if (!commit.stream || !commit.scopeId) throw invalidBatch('a slice needs a stream and a scope id', at);
    if (!isCalendarDate(commit.windowFrom) || !isCalendarDate(commit.windowTo) || commit.windowFrom > commit.windowTo) {
      throw invalidBatch(`slice window ${commit.windowFrom}..${commit.windowTo} is not a range of YYYY-MM-DD dates`, at);
    }
    const { series, summaries, roles, accounts, cursor, backfill } = commit;
    if ((roles || accounts) && (series || summaries)) {
      throw invalidBatch('a slice commits either window rows or a snapshot, not both', at);
    }
    if (roles && roles.kind !== 'venue' && roles.kind !== 'project') {
      throw invalidBatch(`roles kind must be 'venue' or 'project', got ${String(roles.kind)}`, at);
    }
    for (const snapshot of [roles, accounts]) {
      if (snapshot && !Number.isFinite(snapshot.at.getTime())) throw invalidBatch('a snapshot needs a valid instant', at);
    }
    if (series) {
      // The window replaced is (scopeId, stream): rows filed under another venue or stream
      // would sit outside it and be duplicated by the next load of the window.
      if (series.venueId !== commit.scopeId || series.stream !== commit.stream) {
        throw invalidBatch(`series rows of ${series.stream}/${series.venueId} handed in a slice of ${commit.stream}/${commit.scopeId}`, at);
      }
      if (!sameLength([series.metric, series.granularity, series.tsMs, series.value])) {
        throw invalidBatch('series columns have different lengths', at);
      }
    }
    if (summaries) {
      const rows = summaries.rows;
      if (rows.stream !== commit.stream) {
        throw invalidBatch(`summary rows of ${rows.stream} handed in a slice of ${commit.stream}`, at);
      }
      if (summaries.grain !== 'day' && summaries.grain !== 'month') {
        throw invalidBatch(`summary grain must be 'day' or 'month', got ${String(summaries.grain)}`, at);
      }
      if (!sameLength([rows.venueId, rows.metric, rows.periodStart, rows.periodEnd, rows.value])) {
        throw invalidBatch('summary columns have different lengths', at);
      }
    }
    if (cursor) {
      const dates = cursor.mode === 'extend' ? [cursor.date, cursor.baseline] : [cursor.date];
      if ((cursor.mode !== 'advance' && cursor.mode !== 'extend') || !dates.every(isCalendarDate)) {
        throw invalidBatch('a cursor move needs mode advance|extend and YYYY-MM-DD dates', at);
      }
    }
    if (backfill && (!backfill.backfillId || !backfill.sliceKey)) {
      throw invalidBatch('a backfill mark needs a backfill id and a slice key', at);
    }
  });
}
