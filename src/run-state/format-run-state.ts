import type { FoundRunState } from './run-state-file.js';

const n = (value: number): string => value.toLocaleString('en-US');

/** The run-state file for a human (`status` while the warehouse is locked). */
export function formatRunState(found: FoundRunState): string {
  const { state, alive, ageSeconds } = found;
  const percent = state.slicesTotal > 0 ? ` (${Math.floor((100 * state.slicesDone) / state.slicesTotal)} %)` : '';
  const lines = [
    alive === false
      ? `The run-state file is left by a process that is gone (pid ${state.pid}): ${state.job} run ${state.runId} did not finish; the next run marks it failed.`
      : `${state.job} run ${state.runId} is running (pid ${state.pid}${state.shard ? `, shard ${state.shard}` : ''}), started ${state.startedAt}`,
    `  slices:   ${n(state.slicesDone)} of ${n(state.slicesTotal)} done${percent}`,
    `  requests: ${n(state.requests)} (${state.requestsPerSecond} requests/s now)`,
    `  rows:     ${n(state.rows)}`,
  ];
  if (state.etaSeconds !== undefined && alive !== false) lines.push(`  ETA:      ${formatSeconds(state.etaSeconds)}`);
  if (state.lastError) lines.push(`  last error: ${state.lastError}`);
  lines.push(`  (figures of ${ageSeconds} s ago${alive === undefined ? `, written on host ${state.host}` : ''})`);
  return `${lines.join('\n')}\n`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
