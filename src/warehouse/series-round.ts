import { DOUBLE, INTEGER } from '@duckdb/node-api';
import type { SliceCommit } from './slice-commit.js';
import type { Session } from './session.js';
import { NumericStager } from './numeric-stager.js';
import { invalidBatch } from './errors.js';
import { dateToMs, DAY_MS } from '../calendar/index.js';
import { outcomeFromChanged, type RoundOutcome } from './round-outcome.js';
import { sql } from './sql-files.js';
import { markSeriesWindowsChanged } from './export-changes.js';
import { refreshSeriesDailyOfRound } from './series-daily.js';
import { peakHoursOfRound } from './peak-hours-rollup.js';

interface StagedSeries {
  /** Slice index (in the group) of each window w. */
  readonly windowSlice: number[];
  readonly rowsOutsideWindow: number;
  /** False when a metric's timestamps were not strictly increasing: duplicates are possible. */
  readonly provablyUnique: boolean;
}

/**
 * Stages the series rows of one round: one window per slice, a metric dictionary, and the
 * rows as four numeric columns through the data-chunk path. Rows outside their slice's window
 * are skipped (the window owns only its range: the neighbouring window owns the rest).
 */
async function stageSeries(session: Session, slices: readonly [number, SliceCommit][]): Promise<StagedSeries> {
  const connection = session.connection;
  const windowSlice: number[] = [];
  const metricIds = { hour: new Map<string, number>(), day: new Map<string, number>() };
  const windows = await connection.createAppender('stage_series_windows', 'main', 'temp');
  const stager = new NumericStager(await connection.createAppender('stage_series', 'main', 'temp'), [INTEGER, INTEGER, DOUBLE, DOUBLE]);
  // Last timestamp per metric id within the current slice: strictly increasing per metric
  // proves the slice has no duplicate keys without a GROUP BY over the whole batch.
  const lastTs: number[] = [];
  let provablyUnique = true;
  let outside = 0;
  try {
    for (const [sliceIndex, commit] of slices) {
      const series = commit.series;
      if (!series) continue;
      const w = windowSlice.length;
      windowSlice.push(sliceIndex);
      const fromMs = dateToMs(commit.windowFrom);
      const toMs = dateToMs(commit.windowTo) + DAY_MS;
      windows.appendInteger(w);
      windows.appendVarchar(commit.scopeId);
      windows.appendVarchar(commit.stream);
      windows.appendVarchar(new Date(fromMs).toISOString());
      windows.appendVarchar(new Date(toMs).toISOString());
      const windowGrain = commit.seriesGrain ?? 'day';
      if (windowGrain !== 'day' && windowGrain !== 'hour')
        throw invalidBatch(`series grain must be 'hour' or 'day', got ${String(windowGrain)}`, { stream: commit.stream });
      windows.appendVarchar(windowGrain);
      windows.endRow();

      lastTs.fill(-Infinity);
      const { metric, granularity, tsMs, value } = series;
      let lastMetric: string | undefined;
      let lastGranularity: string | undefined;
      let m = -1;
      for (let i = 0; i < tsMs.length; i++) {
        const ts = tsMs[i];
        if (!(ts >= fromMs && ts < toMs)) {
          if (!Number.isFinite(ts)) throw invalidBatch(`series timestamp ${String(ts)} is not a number`, { stream: commit.stream });
          outside++;
          continue;
        }
        if (metric[i] !== lastMetric || granularity[i] !== lastGranularity) {
          lastMetric = metric[i];
          lastGranularity = granularity[i];
          const ids = lastGranularity === 'hour' ? metricIds.hour : lastGranularity === 'day' ? metricIds.day : undefined;
          if (!ids) throw invalidBatch(`series granularity must be 'hour' or 'day', got ${String(lastGranularity)}`, { stream: commit.stream });
          // The window replaces one grain's rows: a row of the other grain would land beside
          // them and never be replaced by its own grain's window.
          if (lastGranularity !== windowGrain) {
            throw invalidBatch(`a ${windowGrain} window of ${commit.stream}/${commit.scopeId} holds ${lastGranularity} rows`, { stream: commit.stream });
          }
          let id = ids.get(lastMetric);
          if (id === undefined) {
            id = metricIds.hour.size + metricIds.day.size;
            ids.set(lastMetric, id);
            lastTs.push(-Infinity);
          }
          m = id;
        }
        if (ts <= lastTs[m]) provablyUnique = false;
        lastTs[m] = ts;
        const v = value[i];
        const vectors = stager.vectors;
        const k = stager.size;
        vectors[0].setItem(k, w);
        vectors[1].setItem(k, m);
        vectors[2].setItem(k, ts);
        vectors[3].setItem(k, v === null ? NaN : v);
        stager.next();
      }
    }
    stager.finish();
    windows.flushSync();
  } finally {
    windows.closeSync();
  }

  const metrics = await connection.createAppender('stage_series_metrics', 'main', 'temp');
  try {
    for (const [granularity, ids] of Object.entries(metricIds)) {
      for (const [metric, id] of ids) {
        metrics.appendInteger(id);
        metrics.appendVarchar(metric);
        metrics.appendVarchar(granularity);
        metrics.endRow();
      }
    }
    metrics.flushSync();
  } finally {
    metrics.closeSync();
  }
  return { windowSlice, rowsOutsideWindow: outside, provablyUnique };
}

async function refuseContradictions(session: Session): Promise<void> {
  const duplicates = await session.all<{ distinct_values: number }>(sql('warehouse/series-duplicates.sql'));
  if (duplicates.length === 0) return;
  if (duplicates[0].distinct_values > 1) {
    throw invalidBatch('the batch holds the same series point twice with different values', {
      examples: duplicates.filter((row) => row.distinct_values > 1),
    });
  }
  await session.run(sql('warehouse/series-dedupe.sql'));
}

/** Replaces the series windows of one round whose rows changed; see series-changed-windows.sql. */
export async function replaceSeriesRound(session: Session, runId: string, slices: readonly [number, SliceCommit][]): Promise<RoundOutcome> {
  await session.run(sql('warehouse/series-staging.sql'));
  const staged = await stageSeries(session, slices);
  if (!staged.provablyUnique) await refuseContradictions(session);
  await session.run(sql('warehouse/series-changed-windows.sql'));
  const changed = await session.all<{ w: number; staged_rows: number }>(sql('warehouse/series-changed.sql'));
  if (changed.length > 0) {
    const peakHours = peakHoursOfRound(session);
    await peakHours.before();
    await session.run(sql('warehouse/series-delete.sql'));
    await session.run(sql('warehouse/series-insert.sql'), [runId]);
    await peakHours.after();
    await markSeriesWindowsChanged(session);
    await refreshSeriesDailyOfRound(session);
  }
  return outcomeFromChanged(changed, staged.windowSlice, staged.rowsOutsideWindow);
}
