import { alignedTable } from '../infra/text-table.js';
import { fitLines } from '../infra/text-wrap.js';
import type { RunResult } from '../runner/execute-run.js';
import { formatSliceCounts } from '../runner/slice-counts.js';
import { shardLine, type ShardSummary } from './shard-option.js';

const n = (value: number): string => value.toLocaleString('en-US');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** What an interrupted run's summary says to run to continue (a forced backfill: without --force). */
export const CONTINUE_HINT = 'run the same command again to continue';

/**
 * The human summary of a sync or backfill run, for stdout: the totals, then a line per stream
 * (the same figures as `sync_runs.detail.streams` and `--format json`), laid out to `width`.
 */
export function formatRunSummary(job: string, result: RunResult, width?: number, shard?: ShardSummary, continueHint = CONTINUE_HINT): string {
  const lines = [
    `${job} run ${result.runId} ${result.interrupted ? 'interrupted' : result.status} in ${seconds(result.durationMs)}`,
    `  slices:   ${formatSliceCounts(result.slices)}`,
    `  requests: ${n(result.requests)} (${n(result.retries)} retries)`,
    `  rows:     ${n(result.rowsExtracted)} extracted, ${n(result.rowsWritten)} written (windows that did not change are not rewritten)`,
  ];
  const throttled = throttledLine(result);
  if (throttled) lines.push(throttled);
  if (shard) lines.push(shardLine(shard));
  for (const warning of result.warnings) lines.push(`  warning:  ${warning}`);
  if (result.drift.length > 0) lines.push(`  drift:    the API sent unknown attributes: ${result.drift.map((d) => `${d.stream}.${d.attribute}`).join(', ')}`);
  if (result.fatal) lines.push(`  stopped:  ${result.fatal.replace(/\n/g, '\n            ')}`);
  if (!result.recorded)
    lines.push('  not recorded: the warehouse took no more writes; `venue-etl status` shows this run running until the next run marks it failed.');
  else if (result.slices.failed > 0) lines.push('  failed slices are listed by `venue-etl status`; the next run retries them (their cursors did not move).');
  if (result.interrupted) lines.push(`  interrupted${result.interruption ? ` (${result.interruption})` : ''}: what finished is committed; ${continueHint}.`);
  const table = result.streams.length === 0 ? '' : `\n${streamTable(result, width)}`;
  return `${fitLines(lines.join('\n'), width)}\n${table}`;
}

/** `  429s:     9 (retried); rate limit 9.9 requests/s`: what the run met of the API's limit, when it met any. */
function throttledLine(result: RunResult): string | undefined {
  if (result.throttled === 0 && result.rateLimitPerSecond === undefined) return undefined;
  const limit = result.rateLimitPerSecond === undefined ? '' : `; rate limit ${result.rateLimitPerSecond.toFixed(1)} requests/s`;
  return `  429s:     ${n(result.throttled)} (retried)${limit}`;
}

function streamTable(result: RunResult, width: number | undefined): string {
  return alignedTable(
    ['stream', 'slices', 'failed', 'requests', 'rows written', 'time'],
    result.streams.map((s) => [
      s.stream,
      `${n(s.slices.done)}/${n(s.slices.planned)}`,
      n(s.slices.failed),
      n(s.requests),
      n(s.rowsWritten),
      seconds(s.durationMs),
    ]),
    { rightAlign: [false, true, true, true, true, true], ...(width === undefined ? {} : { width }) },
  );
}

/** The run summary as one JSON document (`--format json`): the figures of the table, unrounded. */
export function runSummaryJson(job: string, result: RunResult, shard?: ShardSummary): Record<string, unknown> {
  return {
    job,
    runId: result.runId,
    status: result.status,
    exitCode: result.exitCode,
    interrupted: result.interrupted,
    ...(result.interruption ? { interruption: result.interruption } : {}),
    durationMs: result.durationMs,
    slices: result.slices,
    requests: result.requests,
    retries: result.retries,
    throttled: result.throttled,
    ...(result.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: result.rateLimitPerSecond }),
    rowsExtracted: result.rowsExtracted,
    rowsWritten: result.rowsWritten,
    streams: result.streams,
    warnings: result.warnings,
    drift: result.drift,
    ...(result.fatal ? { fatal: result.fatal } : {}),
    recorded: result.recorded,
    ...(shard ? { shard } : {}),
  };
}
