import { hostname } from 'node:os';
import type { LiveProgress, RunBegun, RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { removeRunState, writeRunState, type RunState } from './run-state-file.js';

/**
 * Keeps the run-state file while a run works: written when it starts, replaced at every
 * progress tick (every 2 s), removed when it ends. The pace is the requests of the last
 * interval; the ETA follows the slices done so far.
 */
export function runStateObserver(logger: Logger): RunObserver {
  let lastTick: { at: number; requests: number } | undefined;
  let warned = false;
  const write = (run: RunBegun, live: LiveProgress): void => {
    const now = Date.now();
    const pace = lastTick && now > lastTick.at ? ((live.requests - lastTick.requests) * 1000) / (now - lastTick.at) : 0;
    lastTick = { at: now, requests: live.requests };
    const elapsed = (now - run.startedAt.getTime()) / 1000;
    const left = live.slicesTotal - live.slicesDone;
    const state: RunState = {
      version: 1,
      job: run.job,
      command: run.command,
      runId: run.runId,
      ...(run.shard ? { shard: run.shard } : {}),
      pid: process.pid,
      host: hostname(),
      startedAt: run.startedAt.toISOString(),
      updatedAt: new Date(now).toISOString(),
      slicesDone: live.slicesDone,
      slicesTotal: live.slicesTotal,
      requests: live.requests,
      rows: live.rows,
      requestsPerSecond: Math.round(pace * 10) / 10,
      ...(live.slicesDone > 0 ? { etaSeconds: Math.round((elapsed / live.slicesDone) * left) } : {}),
      ...(live.lastError ? { lastError: live.lastError } : {}),
    };
    try {
      writeRunState(run.warehousePath, state);
    } catch (error) {
      if (!warned)
        logger.warn({ err: error }, 'could not write the run-state file beside the warehouse; status cannot show this run while it holds the warehouse');
      warned = true;
    }
  };
  return {
    name: 'run-state',
    started: (run) => write(run, { slicesDone: 0, slicesTotal: 0, requests: 0, rows: 0 }),
    progress: write,
    finished: (run) => {
      try {
        removeRunState(run.warehousePath, run.runId);
      } catch (error) {
        logger.debug({ err: error }, 'could not remove the run-state file');
      }
    },
  };
}
