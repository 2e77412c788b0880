import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';

/** The run-state file's shape (docs/operations.md, "Progress while a run holds the warehouse"). */
export const RunState = z.object({
  version: z.literal(1),
  job: z.string(),
  command: z.string(),
  runId: z.string(),
  shard: z.string().optional(),
  pid: z.number().int(),
  host: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  slicesDone: z.number(),
  slicesTotal: z.number(),
  requests: z.number(),
  rows: z.number(),
  /** Requests per second over the last interval. */
  requestsPerSecond: z.number(),
  /** Seconds left at the pace of the slices so far; absent until a slice is done. */
  etaSeconds: z.number().optional(),
  lastError: z.string().optional(),
});
export type RunState = z.infer<typeof RunState>;

/** Beside the warehouse: readable while the run holds the warehouse's lock (which stops every reader). */
export function runStatePath(warehousePath: string): string {
  return `${warehousePath}.run-state.json`;
}

/** Replaced whole (a temp file renamed over it): a reader never sees half a file. */
export function writeRunState(warehousePath: string, state: RunState): void {
  const path = runStatePath(warehousePath);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state)}\n`);
  renameSync(temp, path);
}

/** Removed when the run ends; only a file of the same process is removed (a second process never deletes the runner's). */
export function removeRunState(warehousePath: string, runId: string): void {
  const found = readRunState(warehousePath);
  if (found?.state.runId === runId) rmSync(runStatePath(warehousePath), { force: true });
}

export interface FoundRunState {
  readonly state: RunState;
  /**
   * False when the process that wrote it is gone (killed, crashed, the machine restarted): the
   * figures are its last ones and no run is going on. Unknown (undefined) for another host's process.
   */
  readonly alive: boolean | undefined;
  readonly ageSeconds: number;
}

export function readRunState(warehousePath: string, now = new Date()): FoundRunState | undefined {
  const path = runStatePath(warehousePath);
  if (!existsSync(path)) return undefined;
  let state: RunState;
  try {
    state = RunState.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return undefined;
  }
  const ageSeconds = Math.max(0, Math.round((now.getTime() - Date.parse(state.updatedAt)) / 1000));
  return { state, alive: state.host === hostname() ? processAlive(state.pid) : undefined, ageSeconds };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
