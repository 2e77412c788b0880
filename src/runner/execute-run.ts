import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/client.js';
import type { Catalogue } from '../catalogue/index.js';
import { summaryGrains, type ApiReadyConfig as Config } from '../config/index.js';
import { codeOf, ExitCode, formatError } from '../errors/index.js';
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
import { runChains, type ChainRunResult } from './run-chains.js';
import { runSlice } from './slice-runner.js';
import type { SliceCounts } from './slice-counts.js';
import { StreamTally, type StreamSummary } from './stream-tally.js';
import { WeightedLimit } from './weighted-limit.js';
import type { HeldSnapshot, RunLifecycle } from '../lifecycle/index.js';
import { beginObservation, endObservation, heldForObservers } from './run-observation.js';
import type { Warehouse } from '../warehouse/index.js';

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

export type RunStatus = 'succeeded' | 'partial' | 'failed';

/**
 * The exit status of a run is the status it was recorded with, interrupted or not: a Ctrl-C that
 * left some slices done is `partial` in `sync_runs` and exit 3, one that did nothing `failed`
 * and exit 1 (docs/commands.md, "Exit status").
 */
export function exitCodeOf(status: RunStatus): ExitCode {
  return status === 'succeeded' ? ExitCode.ok : status === 'partial' ? ExitCode.partial : ExitCode.failed;
}

export interface RunResult {
  readonly runId: string;
  readonly status: RunStatus;
  readonly exitCode: ExitCode;
  readonly slices: SliceCounts;
  /** Per stream, sorted by name; also in `sync_runs.detail.streams`. */
  readonly streams: readonly StreamSummary[];
  readonly rowsExtracted: number;
  readonly rowsWritten: number;
  readonly requests: number;
  readonly retries: number;
  /** Requests the API refused with 429 (each retried after its Retry-After). */
  readonly throttled: number;
  /** The API's rate limit found by this run or remembered from an earlier one (docs/rate-limits.md). */
  readonly rateLimitPerSecond?: number;
  readonly durationMs: number;
  readonly interrupted: boolean;
  /** Why an interrupted run stopped, e.g. "received SIGTERM". */
  readonly interruption?: string;
  /** The error that stopped the run, formatted for a human. */
  readonly fatal?: string;
  /**
   * Whether `sync_runs` holds the run's end. Not when the warehouse stopped taking writes (a
   * full disk, a corrupt file): the row says `running` until the next run marks it failed.
   */
  readonly recorded: boolean;
  readonly drift: readonly { stream: string; attribute: string }[];
  readonly warnings: readonly string[];
  /**
   * Roles snapshots the run held back instead of storing them (also in `sync_runs.detail`):
   * told to the observers as `snapshot.held` (docs/operations.md).
   */
  readonly snapshotsHeld?: readonly HeldSnapshot[];
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
  const before: CountsBefore = { requests: client.stats.requests, retries: client.stats.retries, throttled: client.stats.throttled };
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

/** The client's counts when the run started (a client may serve more than one run). */
interface CountsBefore {
  readonly requests: number;
  readonly retries: number;
  readonly throttled: number;
}

async function runStarted(input: RunInput, runId: string, started: number, before: CountsBefore): Promise<RunResult> {
  const { warehouse, client, logger, config } = input;
  const log = logger.child({ runId });
  const drift = new DriftReporter(log);
  const grains = summaryGrains(config);
  // A counting pass over the lazy plan: slices per stream, nothing kept but the counts.
  const plannedByStream = countSlices(input.chains());
  const planned = [...plannedByStream.values()].reduce((n, count) => n + count, 0);
  const doneEarlier = input.doneEarlier ?? 0;
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
  const context = {
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
    dayGrainConfigured: grains.includes('day'),
    cursorFor: input.cursorFor,
    backfillFor: input.backfillFor ?? (() => undefined),
    at: new Date(),
    signal: halt.signal,
  };
  const options = {
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
  // A second signal: slices waiting for their group's commit are dropped (they run next time).
  let hurried: string | undefined;
  const hurry = (): void => {
    const dropped = committer.abandon();
    hurried = `${reasonText(input.hurry?.reason)}: stopped without committing ${dropped} finished slice${dropped === 1 ? '' : 's'} still queued`;
    log.warn({ dropped }, `${hurried}; recording the run`);
  };
  if (input.hurry?.aborted) hurry();
  else input.hurry?.addEventListener('abort', hurry, { once: true });

  // A stream that resolves ids from others comes last: the accounts are looked up from the
  // roles this run has just committed.
  const dependent = (chain: Chain): boolean => input.catalogue.rowsOf(chain.stream).some((row) => row.resolve !== undefined);
  const resolving = (): Iterable<Chain> => filtered(input.chains(), dependent);
  const others = filtered(input.chains(), (chain) => !dependent(chain));
  await beginObservation(
    input.lifecycle,
    warehouse,
    {
      runId,
      job: input.job,
      streams: [...plannedByStream.keys()],
      live: () => ({ slicesDone: progress.slicesDone, slicesTotal: planned, requests: client.stats.requests - before.requests, rows: progress.rows }),
    },
    log,
  );
  progress.start();
  let first: ChainRunResult;
  let second: ChainRunResult;
  try {
    first = await runChains(others, options);
    await committer.drain();
    second =
      first.fatal === undefined && !first.interrupted
        ? await runChains(resolving(), options)
        : { done: 0, failed: 0, skipped: countOf(resolving()), rows: 0, interrupted: first.interrupted };
    await committer.drain();
  } finally {
    progress.stop();
    input.hurry?.removeEventListener('abort', hurry);
  }
  const fatal = first.fatal ?? ('fatal' in second ? second.fatal : undefined);
  const failed = first.failed + second.failed;
  const done = first.done + second.done;
  const skipped = first.skipped + second.skipped;
  const interrupted = first.interrupted || second.interrupted;
  const slices: SliceCounts = { total: planned + doneEarlier, done, failed, skipped, doneEarlier };
  const interruption = interrupted ? [reasonText(input.signal?.reason), hurried].filter(Boolean).join('; then ') : undefined;
  const counted = fatal !== undefined || (done === 0 && planned > 0) ? 'failed' : failed > 0 || skipped > 0 ? 'partial' : 'succeeded';
  const requests = client.stats.requests - before.requests;
  const retries = client.stats.retries - before.retries;
  const throttled = client.stats.throttled - before.throttled;
  const rateLimit = client.stats.rateLimit;
  const streams = tally.summaries();
  const unrecorded = await recordRunEnd(
    warehouse,
    runId,
    {
      status: counted,
      requests,
      retries,
      rowsWritten: committer.rowsWritten,
      // The slice that met a fatal error counts among the failed ones.
      errors: failed,
      detail: {
        pid: process.pid,
        ...input.detail,
        slices,
        streams,
        ...rateLimitDetail(client, config.api),
        ...(interrupted ? { interrupted: true, interruption } : {}),
        ...(fatal === undefined ? {} : { fatal: scrubSecrets(formatError(fatal)) }),
        ...(drift.unknown.length > 0 ? { drift: drift.unknown } : {}),
        ...held.detail(),
      },
    },
    log,
  );
  // A run whose end could not be recorded (the disk filled as it ended) failed, and says why.
  const status = unrecorded === undefined ? counted : 'failed';
  const stoppedBy = fatal ?? unrecorded;
  const fatalText = stoppedBy === undefined ? undefined : scrubSecrets(formatError(stoppedBy));
  await endObservation(input.lifecycle, { warehouse, client, catalogue: input.catalogue, config, streams, status }, log);
  client.logSummary(log);
  return {
    runId,
    status,
    exitCode: exitCodeOf(status),
    slices,
    streams,
    rowsExtracted: first.rows + second.rows,
    rowsWritten: committer.rowsWritten,
    requests,
    retries,
    throttled,
    ...(rateLimit === undefined ? {} : { rateLimitPerSecond: rateLimit }),
    durationMs: Date.now() - started,
    interrupted,
    ...(interruption ? { interruption } : {}),
    ...(fatalText ? { fatal: fatalText } : {}),
    recorded: unrecorded === undefined,
    drift: drift.unknown,
    warnings: [...(input.warnings ?? []), ...held.warnings()],
    ...heldForObservers(held.detail()),
  };
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

/** "received SIGTERM" from an abort reason (an Error, a DOMException or anything else). */
function reasonText(reason: unknown): string {
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return typeof reason === 'string' ? reason : 'stopped';
}
