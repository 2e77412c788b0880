import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ApiReadyConfig, Config } from '../config/index.js';
import { codeOf, ExitCode, formatError, isEtlError, ruleOf } from '../errors/index.js';
import { RunLifecycle, type DriftSeen, type RunIdentity, type RunObserver } from '../lifecycle/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import { observersFor } from '../ops/index.js';
import { deferFailedRun, newRunId, openWarehouseWhenFree, type FailedRunRecord } from '../warehouse/index.js';
import type { RunResult } from './execute-run.js';
import { runTotals } from './run-totals.js';

export interface ObservedRunSetup {
  readonly config: Config | ApiReadyConfig;
  readonly logger: Logger;
  readonly identity: RunIdentity;
  /** The process's observers (serve passes its own, sharing its metrics registry); default: from the config. */
  readonly observers?: readonly RunObserver[];
}

/** How long a run that failed before its first slice waits to record that in the warehouse. */
const RECORD_WAIT_MS = 5_000;

/**
 * A sync or backfill observed from start to end (the run lifecycle). A run that fails before
 * its first slice — the access check, a held lock, the API unreachable — is recorded as a
 * failed run and told to the observers like any other; a usage or config error (exit 2) is
 * not a run.
 */
export async function observeRun<T extends RunResult | { readonly alreadyFinished: true }>(
  setup: ObservedRunSetup,
  work: (lifecycle: RunLifecycle) => Promise<T>,
): Promise<T> {
  const observers = setup.observers ?? observersFor(setup.config, setup.logger);
  const lifecycle = new RunLifecycle(setup.identity, observers, setup.logger);
  const startedAt = new Date();
  let done: T;
  try {
    done = await work(lifecycle);
  } catch (error) {
    if (isEtlError(error) && error.exitCode === ExitCode.usage) throw error;
    const runId = lifecycle.hasBegun ? undefined : await recordEarlyFailure(setup, error, startedAt);
    await lifecycle.finish({
      outcome: 'failed',
      error: errorSummary(error),
      interrupted: codeOf(error) === 'VENUE_API_ABORTED',
      ...(runId ? { runId } : {}),
    });
    throw error;
  }
  // A finished backfill asked again ran nothing: there is no run to tell of.
  if (!('runId' in done)) return done;
  const result: RunResult = done;
  await lifecycle.finish({
    outcome: result.status,
    interrupted: result.interrupted,
    totals: runTotals(result),
    drift: driftOf(result, lifecycle),
    ...(result.snapshotsHeld ? { snapshotsHeld: result.snapshotsHeld } : {}),
    ...(result.fatal ? { error: { code: result.fatal.split(':', 1)[0] ?? 'VENUE_ETL_INTERNAL', message: result.fatal } } : {}),
  });
  return done;
}

function errorSummary(error: unknown): { code: string; message: string; hint?: string } {
  const code = codeOf(error) ?? 'VENUE_ETL_INTERNAL';
  const message = scrubSecrets(error instanceof Error ? error.message : String(error));
  const hint = isEtlError(error) && error.hint ? scrubSecrets(error.hint) : undefined;
  return { code, message, ...(hint ? { hint } : {}) };
}

/**
 * Attributes the API sent that the catalogue does not know (the run went on) and attributes it
 * stopped sending (their slices failed with VENUE_API_SCHEMA "… is missing").
 */
function driftOf(result: RunResult, lifecycle: RunLifecycle): DriftSeen[] {
  const added = result.drift.map((d) => ({ stream: d.stream, attribute: d.attribute, change: 'added' as const }));
  const missing = new Map<string, DriftSeen>();
  for (const failure of lifecycle.failedScopes) {
    if (failure.code !== 'VENUE_API_SCHEMA') continue;
    const match = /attributes\.([\w.-]+) is missing/.exec(failure.message);
    if (match?.[1]) missing.set(`${failure.stream}\u0000${match[1]}`, { stream: failure.stream, attribute: match[1], change: 'missing' });
  }
  return [...added, ...missing.values()];
}

/**
 * Records a run that failed before its first slice: in the warehouse when it exists and can be
 * opened, beside it (moved in by the next run) when another process holds it. A first run that
 * fails creates no warehouse (a refused token writes nothing): it is only told to the observers.
 */
async function recordEarlyFailure(setup: ObservedRunSetup, error: unknown, startedAt: Date): Promise<string> {
  const { identity, logger } = setup;
  const runId = newRunId(startedAt);
  const record: FailedRunRecord = {
    runId,
    job: identity.job,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    detail: {
      pid: process.pid,
      host: hostname(),
      beforeFirstSlice: true,
      fatal: scrubSecrets(formatError(error)),
      ...(identity.shard ? { shard: identity.shard } : {}),
    },
  };
  const path = identity.warehousePath;
  if (!existsSync(path)) return runId;
  try {
    if (codeOf(error) === 'VENUE_WAREHOUSE_LOCKED') {
      deferFailedRun(path, record);
      return runId;
    }
    const warehouse = await openWarehouseWhenFree(path, { waitMs: RECORD_WAIT_MS, logger });
    try {
      await warehouse.recordFailedRun(record);
    } finally {
      await warehouse.close();
    }
  } catch (recording) {
    if (codeOf(recording) === 'VENUE_WAREHOUSE_LOCKED') deferFailedRun(path, record);
    else logger.error({ err: recording, runId, retriable: ruleOf(recording).retriable }, 'could not record the failed run');
  }
  return runId;
}
