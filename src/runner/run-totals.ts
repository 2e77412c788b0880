import type { RunTotals } from '../lifecycle/index.js';
import type { RunResult } from './execute-run.js';

/** A run's figures as the lifecycle reports them (per-stream requests and per-table rows are added by the run itself). */
export function runTotals(result: RunResult): RunTotals {
  return {
    slicesTotal: result.slices.total,
    slicesDone: result.slices.done + result.slices.doneEarlier,
    slicesFailed: result.slices.failed,
    slicesSkipped: result.slices.skipped,
    requests: result.requests,
    retries: result.retries,
    throttled: result.throttled,
    rowsWritten: result.rowsWritten,
    rowsByTable: {},
    requestsByStream: [],
    ...(result.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: result.rateLimitPerSecond }),
  };
}
