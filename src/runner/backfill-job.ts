import { createHash } from 'node:crypto';
import { buildCatalogue, type Catalogue } from '../catalogue/index.js';
import { dayHorizonDays, historyGrains, summaryGrains, type ApiReadyConfig as Config, type HistoryGrain } from '../config/index.js';
import { ExitCode, UsageError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { addDays, todayUtc } from '../calendar/index.js';
import { backfillChains, requestCount, streamKey, type BackfillPlanInput, type Chain, type Slice } from '../plan/index.js';
import { executeRun, type RunResult } from './execute-run.js';
import { checkAccess, clientFor } from './open-run.js';
import { resolveScope, shardDetail } from './scope.js';
import { formatShard, type Shard } from './shard.js';
import { observeRun } from './observed-run.js';
import type { RunLifecycle, RunObserver } from '../lifecycle/index.js';
import { cursorDate, DEFAULT_HISTORY_DAYS, LOCK_WAIT_MS, isSnapshot } from './sync-job.js';
import { clockDetail, reportClock } from './run-clock.js';
import { openWarehouseWhenFree } from '../warehouse/index.js';
import { machineNow } from './machine-clock.js';

export interface BackfillOptions {
  readonly from: string;
  readonly to: string;
  readonly streams?: readonly string[];
  readonly venues?: readonly string[];
  /** `--shard I/N`: this worker's venues only (and its own backfill id); roles and accounts on shard 0 only. */
  readonly shard?: Shard;
  readonly windowDays?: number;
  /**
   * `--grain`: only this grain. 'hour': the history streams at hour grain (summaries have no
   * hours); 'day': the day grain of histories and the summaries. Both of `sync.historyGrain` by default.
   */
  readonly grain?: HistoryGrain;
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** A second signal: the run stops without waiting for queued commits, and is still recorded. */
  readonly hurry?: AbortSignal;
  readonly now?: Date;
  readonly progressTty?: NodeJS.WriteStream;
  /** Who observes the run; default: the config's notifications, metrics push, run state and lineage. */
  readonly observers?: readonly RunObserver[];
}

export interface BackfillPlan {
  readonly backfillId: string;
  readonly catalogue: Catalogue;
  /** The plan, lazily: each call plans it again, a chain at a time (see backfillChains). */
  readonly chains: () => Iterable<Chain>;
  readonly slices: number;
  /** Requests at least (one per window or summary period); list endpoints add a request per extra page. */
  readonly requests: number;
  readonly byStream: readonly { stream: string; slices: number; requests: number }[];
  readonly params: Readonly<Record<string, unknown>>;
  /** What the plan was made from (the dry run prices other grains with it). */
  readonly planInputs: readonly BackfillPlanInput[];
}

/** Validates the arguments and plans every slice; touches nothing. */
export function planBackfillRun(config: Config, options: BackfillOptions): BackfillPlan {
  const today = todayUtc(options.now ?? machineNow());
  if (options.from > options.to)
    throw new UsageError(`--from ${options.from} is after --to ${options.to}`, 'swap them: --from is the first day, --to the last');
  if (options.to > today)
    throw new UsageError(`--to ${options.to} is in the future (today is ${today} UTC)`, 'the API has no data for future days; use yesterday or earlier');
  const catalogue = buildCatalogue(config.endpoints);
  const wide = resolveScope(config, catalogue, 'windowed', options.streams, options.venues, options.shard);
  // --grain hour: the history streams only (a summary has no hours).
  const series = (streams: readonly string[]): string[] => streams.filter((stream) => catalogue.endpointFor(stream).kind === 'series');
  const scope =
    options.grain === 'hour' ? { ...wide, streams: series(wide.streams), parts: wide.parts.map((part) => ({ ...part, streams: series(part.streams) })) } : wide;
  const windowDays = options.windowDays ?? config.sync.windowDays;
  const grains = summaryGrains(config);
  const hourly = options.grain === undefined ? historyGrains(config) : [options.grain];
  const horizon = dayHorizonDays(config);
  // One plan input per scope part: a shard's venues, and on shard 0 the streams every shard shares.
  const planInputs = scope.parts.map((part) => ({
    catalogue,
    ...part,
    from: options.from,
    to: options.to,
    today,
    windowDays,
    grains,
    historyGrains: hourly,
    ...(horizon === undefined ? {} : { dayHorizonDays: horizon }),
  }));
  const chains = function* (): Generator<Chain> {
    for (const input of planInputs) yield* backfillChains(input);
  };
  // historyGrains joins the parameters only when it is not the day alone, so the id of a backfill
  // planned before hours existed (and its progress) stays the same.
  const params = {
    from: options.from,
    to: options.to,
    streams: [...scope.streams].sort(),
    venues: [...scope.venues].sort(),
    windowDays,
    grains: [...grains].sort(),
    ...(hourly.length === 1 && hourly[0] === 'day' ? {} : { historyGrains: [...hourly] }),
    // Tiered summaries: another backfill than both grains over the whole range.
    ...(horizon === undefined ? {} : { dayHorizonDays: horizon }),
    // Each shard is its own backfill (its own id and progress); unsharded ids stay as they were.
    ...shardDetail(scope),
  };
  const backfillId = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 16);
  // One line per stream key: the hour grain of a history stream is its own line (`<stream>@hour`).
  const keys = scope.streams.flatMap((stream) =>
    catalogue.endpointFor(stream).kind === 'series' ? hourly.map((grain) => streamKey(stream, grain === 'hour' ? 'hour' : undefined)) : [stream],
  );
  // A counting pass over the lazy plan: the totals, not the slices, are kept.
  const counts = new Map(keys.map((key) => [key, { stream: key, slices: 0, requests: 0 }]));
  for (const chain of chains()) {
    const count = counts.get(streamKey(chain.stream, chain.slices[0]?.grain));
    if (!count) continue;
    count.slices += chain.slices.length;
    for (const slice of chain.slices) count.requests += requestCount(slice);
  }
  const byStream = [...counts.values()];
  return {
    backfillId,
    catalogue,
    chains,
    slices: byStream.reduce((n, s) => n + s.slices, 0),
    requests: byStream.reduce((n, s) => n + s.requests, 0),
    byStream,
    params,
    planInputs,
  };
}

/** A finished backfill asked again does nothing; otherwise it is a run. */
export type BackfillResult =
  | { readonly alreadyFinished: true; readonly backfillId: string; readonly exitCode: ExitCode; readonly resumedSkipping: number }
  | (RunResult & { readonly alreadyFinished: false; readonly backfillId: string; readonly resumedSkipping: number });

/**
 * Re-extracts a date range. Progress is kept per slice in the warehouse: re-running the same
 * command continues with the slices not done yet; a finished backfill is a no-op unless --force.
 */
export function runBackfill(config: Config, logger: Logger, options: BackfillOptions): Promise<BackfillResult> {
  const plan = planBackfillRun(config, options);
  const identity = {
    job: 'backfill',
    command: 'backfill' as const,
    warehousePath: config.warehouse.path,
    ...(options.shard ? { shard: formatShard(options.shard) } : {}),
  };
  return observeRun({ config, logger, identity, ...(options.observers ? { observers: options.observers } : {}) }, (lifecycle) =>
    backfillObserved(config, logger, options, plan, lifecycle),
  );
}

async function backfillObserved(
  config: Config,
  logger: Logger,
  options: BackfillOptions,
  plan: BackfillPlan,
  lifecycle: RunLifecycle,
): Promise<BackfillResult> {
  const client = clientFor(config, logger);
  try {
    const clock = await checkAccess(client, plan.catalogue, () => options.now ?? machineNow(), options.signal);
    const warnings = reportClock(logger, clock);
    if (options.to > clock.today) {
      throw new UsageError(
        `--to ${options.to} is in the future at the API (its date is ${clock.today} UTC)`,
        "the machine's clock is ahead of the API's: set it right, or pass an earlier --to",
      );
    }
    const warehouse = await openWarehouseWhenFree(config.warehouse.path, {
      waitMs: LOCK_WAIT_MS,
      logger,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    try {
      await warehouse.startWriteRun(config.warehouse.memoryLimit);
      if (options.force) await warehouse.resetBackfill(plan.backfillId);
      const state = await warehouse.openBackfill('backfill', plan.params, { backfillId: plan.backfillId });
      // Said once, by the command on stdout (it was also a log line: the same words twice).
      if (state.finished) {
        return { backfillId: plan.backfillId, exitCode: ExitCode.ok, alreadyFinished: true, resumedSkipping: plan.slices };
      }
      const done = state.doneSliceKeys;
      const chains = function* (): Generator<Chain> {
        for (const chain of plan.chains()) {
          const slices = done.size === 0 ? chain.slices : chain.slices.filter((slice) => !done.has(slice.key));
          if (slices.length > 0) yield { ...chain, slices };
        }
      };
      const skipping = done.size;
      if (skipping > 0)
        logger.info(
          { backfillId: plan.backfillId, done: skipping, remaining: plan.slices - skipping },
          'resuming an interrupted backfill: slices already done are skipped',
        );
      // With no cursor yet, the nightly sync would start at its start date: a backfill reaching
      // back to it may set the cursor, so the nightly job does not pull the same days again.
      const baseline = addDays(config.sync.startDate ?? addDays(clock.lastCompleteDay, 1 - DEFAULT_HISTORY_DAYS), -1);
      const result = await executeRun({
        job: 'backfill',
        config,
        catalogue: plan.catalogue,
        logger,
        client,
        warehouse,
        chains,
        // A cursor says its data is complete: a backfill reaching today loads it, but extends
        // the cursor only up to the run's last complete day, so the nightly sync reads today
        // again once it is over.
        cursorFor: (slice: Slice) =>
          isSnapshot(slice) ? { mode: 'advance', date: cursorDate(slice, clock) } : { mode: 'extend', date: cursorDate(slice, clock), baseline },
        backfillFor: (slice: Slice) => ({ backfillId: plan.backfillId, sliceKey: slice.key }),
        detail: { backfillId: plan.backfillId, ...plan.params, resumedSkipping: skipping, clock: clockDetail(clock) },
        warnings,
        lifecycle,
        doneEarlier: skipping,
        progressLabel: 'backfill',
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.hurry ? { hurry: options.hurry } : {}),
        ...(options.progressTty ? { progressTty: options.progressTty } : {}),
      });
      if (result.status === 'succeeded') await warehouse.finishBackfill(plan.backfillId);
      return { ...result, backfillId: plan.backfillId, alreadyFinished: false, resumedSkipping: skipping };
    } finally {
      await warehouse.close();
    }
  } finally {
    await client.close();
  }
}
