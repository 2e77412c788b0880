import { DOUBLE, INTEGER } from '@duckdb/node-api';
import type { SliceCommit } from './slice-commit.js';
import type { Session } from './session.js';
import { NumericStager } from './numeric-stager.js';
import { invalidBatch } from './errors.js';
import { dateToDays, isCalendarDate } from '../calendar/index.js';
import { outcomeFromChanged, type RoundOutcome } from './round-outcome.js';
import { summaryVenues } from './plan-rounds.js';
import { sql } from './sql-files.js';
import { markSummaryWindowsChanged } from './export-changes.js';

type Summaries = NonNullable<SliceCommit['summaries']>;

/**
 * Whether a (period_start, period_end) row lies in the region a slice owns: period_start in
 * the window, and a period of the slice's grain (see SliceCommit.summaries).
 */
function owned(summaries: Summaries, from: string, to: string, start: string, end: string): boolean {
  if (start < from || start > to) return false;
  if (summaries.grain === 'day') return end === start;
  return end > start || (summaries.ownsSingleDayPeriods && end === start);
}

/** Day number of a `YYYY-MM-DD`, remembering the last one (rows repeat the same periods). */
function dayCounter(): (date: string) => number {
  let lastDate = '';
  let lastDay = 0;
  return (date) => {
    if (date !== lastDate) {
      if (!isCalendarDate(date)) throw invalidBatch(`summary period date ${JSON.stringify(date)} is not YYYY-MM-DD`);
      lastDate = date;
      lastDay = dateToDays(date);
    }
    return lastDay;
  };
}

async function stageSummaries(session: Session, slices: readonly [number, SliceCommit][]): Promise<{ windowSlice: number[]; rowsOutsideWindow: number }> {
  const connection = session.connection;
  const windowSlice: number[] = [];
  const metricIds = new Map<string, number>();
  const startDay = dayCounter();
  const endDay = dayCounter();
  const windows = await connection.createAppender('stage_summary_windows', 'main', 'temp');
  const stager = new NumericStager(await connection.createAppender('stage_summaries', 'main', 'temp'), [INTEGER, INTEGER, INTEGER, INTEGER, DOUBLE]);
  let outside = 0;
  try {
    for (const [sliceIndex, commit] of slices) {
      const summaries = commit.summaries;
      if (!summaries) continue;
      const windowOfVenue = new Map<string, number>();
      for (const venue of summaryVenues(commit)) {
        const w = windowSlice.length;
        windowSlice.push(sliceIndex);
        windowOfVenue.set(venue, w);
        windows.appendInteger(w);
        windows.appendVarchar(venue);
        windows.appendVarchar(commit.stream);
        windows.appendVarchar(commit.windowFrom);
        windows.appendVarchar(commit.windowTo);
        windows.appendVarchar(summaries.grain);
        windows.appendBoolean(summaries.ownsSingleDayPeriods);
        windows.endRow();
      }
      const { venueId, metric, periodStart, periodEnd, value } = summaries.rows;
      for (let i = 0; i < metric.length; i++) {
        if (!owned(summaries, commit.windowFrom, commit.windowTo, periodStart[i], periodEnd[i])) {
          outside++;
          continue;
        }
        let m = metricIds.get(metric[i]);
        if (m === undefined) {
          m = metricIds.size;
          metricIds.set(metric[i], m);
        }
        // summaryVenues gave every venue of the rows a window; undefined would be a bug there.
        const w = windowOfVenue.get(venueId[i].toLowerCase());
        if (w === undefined) throw invalidBatch(`summary row of venue ${venueId[i]} has no window`, { stream: commit.stream });
        const v = value[i];
        const vectors = stager.vectors;
        const k = stager.size;
        vectors[0].setItem(k, w);
        vectors[1].setItem(k, m);
        vectors[2].setItem(k, startDay(periodStart[i]));
        vectors[3].setItem(k, endDay(periodEnd[i]));
        vectors[4].setItem(k, v === null ? NaN : v);
        stager.next();
      }
    }
    stager.finish();
    windows.flushSync();
  } finally {
    windows.closeSync();
  }

  const metrics = await connection.createAppender('stage_summary_metrics', 'main', 'temp');
  try {
    for (const [metric, id] of metricIds) {
      metrics.appendInteger(id);
      metrics.appendVarchar(metric);
      metrics.endRow();
    }
    metrics.flushSync();
  } finally {
    metrics.closeSync();
  }
  return { windowSlice, rowsOutsideWindow: outside };
}

async function refuseContradictions(session: Session): Promise<void> {
  const duplicates = await session.all<{ distinct_values: number }>(sql('warehouse/summary-duplicates.sql'));
  if (duplicates.length === 0) return;
  if (duplicates[0].distinct_values > 1) {
    throw invalidBatch('the batch holds the same summary value twice with different values', {
      examples: duplicates.filter((row) => row.distinct_values > 1),
    });
  }
  await session.run(sql('warehouse/summary-dedupe.sql'));
}

/** Replaces the summary windows of one round whose rows changed; see summary-changed-windows.sql. */
export async function replaceSummaryRound(session: Session, runId: string, slices: readonly [number, SliceCommit][]): Promise<RoundOutcome> {
  await session.run(sql('warehouse/summary-staging.sql'));
  const staged = await stageSummaries(session, slices);
  // Summary batches are small (one row per metric and period): always check for duplicates.
  await refuseContradictions(session);
  await session.run(sql('warehouse/summary-changed-windows.sql'));
  const changed = await session.all<{ w: number; staged_rows: number }>(sql('warehouse/summary-changed.sql'));
  if (changed.length > 0) {
    await session.run(sql('warehouse/summary-delete.sql'));
    await session.run(sql('warehouse/summary-insert.sql'), [runId]);
    await markSummaryWindowsChanged(session);
  }
  return outcomeFromChanged(changed, staged.windowSlice, staged.rowsOutsideWindow);
}
