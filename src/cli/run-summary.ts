import type { RunResult } from '../runner/execute-run.js';
import { formatSliceCounts } from '../runner/slice-counts.js';

const n = (value: number): string => value.toLocaleString('en-US');

/** The human summary of a sync or backfill run, for stdout. */
export function formatRunSummary(job: string, result: RunResult): string {
  const lines = [
    `${job} run ${result.runId} ${result.interrupted ? 'interrupted' : result.status} in ${(result.durationMs / 1000).toFixed(1)}s`,
    `  slices:   ${formatSliceCounts(result.slices)}`,
    `  requests: ${n(result.requests)} (${n(result.retries)} retries)`,
    `  rows:     ${n(result.rowsExtracted)} extracted, ${n(result.rowsWritten)} written (windows that did not change are not rewritten)`,
  ];
  for (const warning of result.warnings) lines.push(`  warning:  ${warning}`);
  if (result.drift.length > 0) lines.push(`  drift:    the API sent unknown attributes: ${result.drift.map((d) => `${d.stream}.${d.attribute}`).join(', ')}`);
  if (result.fatal) lines.push(`  stopped:  ${result.fatal.replace(/\n/g, '\n            ')}`);
  if (result.slices.failed > 0) lines.push('  failed slices are listed by `venue-etl status`; the next run retries them (their cursors did not move).');
  if (result.interrupted) lines.push(`  interrupted${result.interruption ? ` (${result.interruption})` : ''}: what finished is committed; run the same command again to continue.`);
  return `${lines.join('\n')}\n`;
}

