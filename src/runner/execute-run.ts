import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/client.js';
import type { Catalogue } from '../catalogue/index.js';
import { summaryGrains, type ApiReadyConfig as Config } from '../config/index.js';
import { codeOf, formatError } from '../errors/index.js';
import { scrubSecrets, type Logger } from '../log/index.js';
import { DriftReporter } from '../normalize/index.js';
import { streamKey, type Chain, type Slice } from '../plan/index.js';
import type { CursorMove } from '../warehouse/slice-commit.js';
import { isFatalForRun } from './fatal.js';
import { RunHalt } from './run-halt.js';
import { recordRunEnd } from './run-record.js';
import { GroupCommitter } from './group-committer.js';
import { HeldSnapshots } from './held-snapshots.js';
import { limitHeapGrowth } from './heap-growth.js';
import { ProgressReporter } from './progress.js';
import { rateLimitDetail, startFromRememberedRateLimit } from './rate-limit-memory.js';
import { runChains, type ChainRunOptions } from './run-chains.js';
import { runSlice, type SliceRunnerContext } from './slice-runner.js';
import { StreamTally } from './stream-tally.js';
import { WeightedLimit } from './weighted-limit.js';
import type { RunLifecycle } from '../lifecycle/index.js';
import { beginObservation, endObservation, heldForObservers } from './run-observation.js';
import type { Warehouse } from '../warehouse/index.js';
import {
  reasonText,
  requestCounts,
  requestsSince,
  runEndTotals,
  runOutcome,
  runResult,
  type ChainPasses,
  type RequestCounts,
  type RunResult,
} from './run-outcome.js';

export { exitCodeOf } from './run-outcome.js';
export type { RunResult, RunStatus } from './run-outcome.js';

export interface RunInput {
  readonly job: string;
  readonly config: Config;
  /** The endpoint table the chains were planned from (a stream's rows beyond its first). */
  readonly catalogue: Catalogue;
  readonly logger: Logger;
  readonly client: ApiClient;
  readonly warehouse: Warehouse;
  /**
   * The plan, read lazily and more than once (a counting pass, then the run): each call starts
   * it again. Only the chains in flight are held (see runChains).
   */
  readonly chains: () => Iterable<Chain>;
  /** Chains worked on at once (MAX_CHAINS_IN_FLIGHT by default). */
  readonly maxChainsInFlight?: number;
  readonly cursorFor: (slice: Slice) => CursorMove | undefined;
  readonly backfillFor?: (slice: Slice) => { backfillId: string; sliceKey: string } | undefined;
  readonly detail?: Readonly<Record<string, unknown>>;
  /** Planned slices an earlier run already did (a resumed backfill): counted, not run again. */
  readonly doneEarlier?: number;
  /** Aborted: stop starting slices, abandon requests in flight, commit what is queued, record the run. */
  readonly signal?: AbortSignal;
  /** Aborted (a second signal): do not wait for queued slices' commit either; the run is still recorded. */
  readonly hurry?: AbortSignal;
  /** Show a progress bar here (a terminal); otherwise log progress lines. */
  readonly progressTty?: NodeJS.WriteStream;
  readonly progressLabel?: string;
  /** Said before the run (e.g. a clock skew): repeated in the run's result for the summary. */
  readonly warnings?: readonly string[];
  /** Told when the run is recorded, every few seconds after, of each failed slice and before the end (observeRun). */
  readonly lifecycle?: RunLifecycle;
}

/**
 * Chains worked on at once. Enough for groups of maxRows even when slices are small (~70 rows
 * each in a backfill); the plan is read only this far ahead of the work (see runChains).
 */
export const MAX_CHAINS_IN_FLIGHT = 4096;

/**
 * Runs planned chains as one recorded run: streams whose rows resolve ids from other streams
 * (the accounts the roles name) after the others. Slices commit through the group committer; failures land in sync_errors.
 */
export async function executeRun(input: RunInput): Promise<RunResult> {
  const { warehouse, client, logger } = input;
  // Every request in flight or waiting out a backoff listens on the run's signal (and stops
  // listening when it ends), so more than Node's default of 10 at once is normal here, not a leak.
  if (input.signal) setMaxListeners(0, input.signal);
  limitHeapGrowth();
  const started = Date.now();
  const before = requestCounts(client);
  await warehouse.markAbandonedRuns();
  const runId = await warehouse.startRun(input.job, { pid: process.pid, ...input.detail });
  await startFromRememberedRateLimit(warehouse, client, input.config.api, logger.child({ runId }));
  try {
    return await runStarted(input, runId, started, before);
  } catch (error) {
    // Whatever broke, the run does not stay 'running': it is recorded as failed, with why.
    const fatal = scrubSecrets(formatError(error));
    await recordRunEnd(warehouse, runId, { status: 'failed', errors: 1, detail: { fatal } }, logger.child({ runId })).catch((recording: unknown) => {
      logger.error({ err: recording, runId }, 'could not record the end of the run; the next run marks it failed');
      warehouse.forgetRun(runId);
    });
    throw error;
  }
}

/** The parts of a started run: its plan's counts, progress, tallies, committer and the chains' options. */
interface RunParts {
  readonly log: Logger;
  readonly plannedByStream: ReadonlyMap<string, number>;
  readonly planned: number;
  readonly drift: DriftReporter;
  readonly progress: ProgressReporter;
  readonly tally: StreamTally;
  readonly held: HeldSnapshots;
  readonly committer: GroupCommitter;
  readonly options: ChainRunOptions;
}

/** The run once recorded as started: its chains in two passes, then its end recorded and observed. */
async function runStarted(input: RunInput, runId: string, started: number, before: RequestCounts): Promise<RunResult> {
  const { warehouse, client, config } = input;
  const run = prepareRun(input, runId, before);
  const { log, progress } = run;
  const hurry = onHurry(input.hurry, run.committer, log);
  await beginObservation(
    input.lifecycle,
    warehouse,
    {
      runId,
      job: input.job,
      streams: [...run.plannedByStream.keys()],
      live: () => ({ slicesDone: progress.slicesDone, slicesTotal: run.planned, requests: client.stats.requests - before.requests, rows: progress.rows }),
    },
    log,
  );
  progress.start();
  let passes: ChainPasses;
  try {
    passes = await runPasses(input, run);
  } finally {
    progress.stop();
    hurry.stop();
  }
  const outcome = runOutcome(passes, run.planned, input.doneEarlier ?? 0, { signalReason: input.signal?.reason, hurried: hurry.said() });
  const counts = requestsSince(client, before);
  const streams = run.tally.summaries();
  const end = { streams, rateLimit: rateLimitDetail(client, config.api), drift: run.drift.unknown, held: run.held.detail() };
  const unrecorded = await recordRunEnd(warehouse, runId, runEndTotals(outcome, counts, run.committer.rowsWritten, input.detail, end), log);
  const status = unrecorded === undefined ? outcome.status : 'failed';
  await endObservation(input.lifecycle, { warehouse, client, catalogue: input.catalogue, config, streams, status }, log);
  client.logSummary(log);
  return runResult(outcome, counts, unrecorded, {
    runId,
    streams,
    rowsWritten: run.committer.rowsWritten,
    rateLimitPerSecond: client.stats.rateLimit,
    durationMs: Date.now() - started,
    drift: run.drift.unknown,
    warnings: [...(input.warnings ?? []), ...run.held.warnings()],
    ...heldForObservers(run.held.detail()),
  });
}

function prepareRun(input: RunInput, runId: string, before: RequestCounts): RunParts {
  const { warehouse, client, config } = input;
  const log = input.logger.child({ runId });
  // A counting pass over the lazy plan: slices per stream, nothing kept but the counts.
  const plannedByStream = countSlices(input.chains());
  const planned = [...plannedByStream.values()].reduce((n, count) => n + count, 0);
  const progress = new ProgressReporter(planned, () => client.stats.requests - before.requests, {
    logger: log,
    label: input.progressLabel ?? input.job,
    ...(input.progressTty ? { tty: input.progressTty } : {}),
  });
  // Requests of the slices being extracted, at most 4 x api.concurrency: enough to keep the
  // client's slots busy, few enough that answers do not wait in its queue long (everything a
  // waiting request holds outlives the young generation and costs old-generation heap). A
  // slice waiting for its group's commit holds none of it, and the committer's queue bounds the
  // rows held; chains (one slice in flight each) are bounded only to keep the promises few.
  const extracting = new WeightedLimit(config.api.concurrency * 4);
  const tally = new StreamTally(plannedByStream, client.stats.byStream);
  const held = new HeldSnapshots(log);
  const committer = new GroupCommitter(warehouse, runId, {
    moreComing: () => extracting.busy,
    onCommitted: (commit, rowsWritten) => tally.written(commit.stream, rowsWritten),
    onSnapshots: (notes) => held.note(notes),
  });
  // Aborted by an interruption or by the run's first fatal error: extraction listens on it.
  const halt = new RunHalt(input.signal);
  const drift = new DriftReporter(log);
  const context: SliceRunnerContext = {
    catalogue: input.catalogue,
    client,
    warehouse,
    committer,
    drift,
    logger: log,
    runId,
    extracting: <T>(requests: number, work: () => Promise<T>) =>
      extracting.run(requests, () => {
        halt.throwIfStopped();
        return work();
      }),
    pageSize: config.api.pageSize,
    accountsBatchSize: config.api.accountsBatchSize,
    dayGrainConfigured: summaryGrains(config).includes('day'),
    cursorFor: input.cursorFor,
    backfillFor: input.backfillFor ?? (() => undefined),
    at: new Date(),
    signal: halt.signal,
  };
  const parts = { log, plannedByStream, planned, drift, progress, tally, held, committer };
  return { ...parts, options: chainOptions(input, runId, context, halt, before, parts) };
}

/** How the chains run: each slice tallied, a fatal error stopping the rest, a failure recorded. */
function chainOptions(
  input: RunInput,
  runId: string,
  context: SliceRunnerContext,
  halt: RunHalt,
  before: RequestCounts,
  run: Omit<RunParts, 'options'>,
): ChainRunOptions {
  const { warehouse, client } = input;
  const { log, tally, progress, committer } = run;
  return {
    concurrency: input.maxChainsInFlight ?? MAX_CHAINS_IN_FLIGHT,
    ...(input.signal ? { signal: input.signal } : {}),
    runSlice: (slice: Slice) => {
      tally.started(slice);
      return runSlice(slice, context);
    },
    isFatal: isFatalForRun,
    onFatal: (error: unknown) => {
      halt.stop(codeOf(error));
      // A warehouse that takes no more writes would refuse each slice waiting for its commit.
      if (warehouse.failure) committer.abandon();
      const requests = client.stats.requests - before.requests;
      log.error({ code: codeOf(error), requests }, 'the run stops here: the slices in flight are abandoned and no further request is sent');
    },
    onSliceDone: (slice: Slice, rows: number) => {
      tally.ended(slice, { rows });
      progress.sliceDone(rows);
    },
    onFailure: async (slice: Slice, error: unknown) => {
      tally.ended(slice, 'failed');
      // The hour grain's failures are filed under its stream key (`<stream>@hour`), like its cursor.
      input.lifecycle?.sliceFailed({
        stream: streamKey(slice.stream, slice.grain),
        scopeId: slice.scopeId,
        code: codeOf(error) ?? 'VENUE_ETL_INTERNAL',
        message: scrubSecrets(formatError(error)),
      });
      await recordSliceFailure(warehouse, runId, slice, error, log);
    },
  };
}

/**
 * A stream that resolves ids from others comes last: the accounts are looked up from the roles
 * this run has just committed. Each pass's slices are committed before the next starts.
 */
async function runPasses(input: RunInput, run: RunParts): Promise<ChainPasses> {
  const dependent = (chain: Chain): boolean => input.catalogue.rowsOf(chain.stream).some((row) => row.resolve !== undefined);
  const resolving = (): Iterable<Chain> => filtered(input.chains(), dependent);
  const first = await runChains(
    filtered(input.chains(), (chain) => !dependent(chain)),
    run.options,
  );
  await run.committer.drain();
  const second =
    first.fatal === undefined && !first.interrupted
      ? await runChains(resolving(), run.options)
      : { done: 0, failed: 0, skipped: countOf(resolving()), rows: 0, interrupted: first.interrupted };
  await run.committer.drain();
  return { first, second };
}

/**
 * A second signal: slices waiting for their group's commit are dropped (they run next time).
 * `said()` is what the run's interruption adds about it.
 */
function onHurry(signal: AbortSignal | undefined, committer: GroupCommitter, log: Logger): { said(): string | undefined; stop(): void } {
  let hurried: string | undefined;
  const hurry = (): void => {
    const dropped = committer.abandon();
    hurried = `${reasonText(signal?.reason)}: stopped without committing ${dropped} finished slice${dropped === 1 ? '' : 's'} still queued`;
    log.warn({ dropped }, `${hurried}; recording the run`);
  };
  if (signal?.aborted) hurry();
  else signal?.addEventListener('abort', hurry, { once: true });
  return { said: () => hurried, stop: () => signal?.removeEventListener('abort', hurry) };
}

/**
 * A failed slice: one log line naming it, and a `sync_errors` row so that `status` shows it and
 * the next run retries it. Not recorded when the warehouse takes no more writes (the run stops
 * on that failure, and its log says it once).
 */
async function recordSliceFailure(warehouse: Warehouse, runId: string, slice: Slice, error: unknown, log: Logger): Promise<void> {
  const code = codeOf(error) ?? 'VENUE_ETL_INTERNAL';
  const message = scrubSecrets(formatError(error));
  // The hour grain's failures are filed under its stream key (`<stream>@hour`), like its cursor.
  const stream = streamKey(slice.stream, slice.grain);
  log.error({ stream, scopeId: slice.scopeId, windowFrom: slice.windowFrom, windowTo: slice.windowTo, code }, message);
  if (warehouse.failure) return;
  await warehouse
    .recordSyncErrors(runId, [{ stream, scopeId: slice.scopeId, windowFrom: slice.windowFrom, windowTo: slice.windowTo, errorCode: code, message }])
    .catch((recording: unknown) =>
      log.error({ err: recording, stream: slice.stream, scopeId: slice.scopeId }, 'could not record the failed slice in sync_errors'),
    );
}

/** Slices per stream of a plan (its chains are read and dropped). */
function countSlices(chains: Iterable<Chain>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const chain of chains) counts.set(chain.stream, (counts.get(chain.stream) ?? 0) + chain.slices.length);
  return counts;
}

function countOf(chains: Iterable<Chain>): number {
  let slices = 0;
  for (const chain of chains) slices += chain.slices.length;
  return slices;
}

function* filtered(chains: Iterable<Chain>, keep: (chain: Chain) => boolean): Generator<Chain> {
  for (const chain of chains) if (keep(chain)) yield chain;
}
