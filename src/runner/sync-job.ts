import { buildCatalogue, isSnapshotEndpoint } from '../catalogue/index.js';
import { dayHorizonDays, historyGrains, summaryGrains, type ApiReadyConfig as Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { addDays, minDate, todayUtc } from '../calendar/index.js';
import { syncChains, type Chain } from '../plan/index.js';
import type { Slice } from '../plan/index.js';
import { emptyScopeWarning } from './empty-scope.js';
import { executeRun, type RunResult } from './execute-run.js';
import { checkAccess, clientFor } from './open-run.js';
import { resolveScope, shardDetail } from './scope.js';
import { formatShard, type Shard } from './shard.js';
import { openWarehouseWhenFree, type Warehouse } from '../warehouse/index.js';
import { cursorKey } from '../plan/index.js';
import { machineNow } from './machine-clock.js';
import { observeRun } from './observed-run.js';
import type { RunLifecycle, RunObserver } from '../lifecycle/index.js';
import { clockDetail, reportClock, type RunClock } from './run-clock.js';

export interface SyncOptions {
  readonly streams?: readonly string[];
  readonly venues?: readonly string[];
  /** `--shard I/N`: this worker's venues only; roles and accounts on shard 0 only. */
  readonly shard?: Shard;
  /** Last day to extract; yesterday (UTC) by default. */
  readonly until?: string;
  readonly job?: string;
  readonly signal?: AbortSignal;
  /** A second signal: the run stops without waiting for queued commits, and is still recorded. */
  readonly hurry?: AbortSignal;
  readonly now?: Date;
  readonly progressTty?: NodeJS.WriteStream;
  /** Who observes the run (serve passes its own); default: the config's notifications, metrics push, run state and lineage. */
  readonly observers?: readonly RunObserver[];
}

/** Roles and accounts: one snapshot per run, stamped with the day it was taken. */
export function isSnapshot(slice: Slice): boolean {
  return isSnapshotEndpoint(slice.endpoint);
}

/** How long a run waits for another process's write lock (serve's short merges) before failing. */
export const LOCK_WAIT_MS = 30_000;

/** Default first day when `sync.startDate` is not set: 30 days of history. */
export const DEFAULT_HISTORY_DAYS = 30;

/**
 * The nightly job: every selected stream and scope from its cursor minus the lookback up to
 * `until`. The token is checked before the warehouse is opened, so a refused token writes nothing.
 * `until` defaults to the run's last complete day: the earlier of the machine's and the API's
 * yesterday (the API's clock is its `Date` header), so a machine clock ahead never loads a day
 * that has not ended at the API as complete.
 */
export function runSync(config: Config, logger: Logger, options: SyncOptions = {}): Promise<RunResult> {
  const identity = {
    job: options.job ?? 'sync',
    command: 'sync' as const,
    warehousePath: config.warehouse.path,
    ...(options.shard ? { shard: formatShard(options.shard) } : {}),
  };
  return observeRun({ config, logger, identity, ...(options.observers ? { observers: options.observers } : {}) }, (lifecycle) =>
    syncObserved(config, logger, options, lifecycle),
  );
}

async function syncObserved(config: Config, logger: Logger, options: SyncOptions, lifecycle: RunLifecycle): Promise<RunResult> {
  const catalogue = buildCatalogue(config.endpoints);
  const scope = resolveScope(config, catalogue, 'all', options.streams, options.venues, options.shard);
  const now = (): Date => options.now ?? machineNow();
  const machineToday = todayUtc(now());
  if (options.until !== undefined && options.until > machineToday)
    throw new UsageError(`--to ${options.until} is in the future (today is ${machineToday} UTC)`);
  const client = clientFor(config, logger);
  try {
    const clock = await checkAccess(client, catalogue, now, options.signal);
    const warnings = reportClock(logger, clock);
    // The whole scope, not a shard's part: a shard may rightly hold no venue.
    const emptyScope = emptyScopeWarning(catalogue, scope.streams, { venues: options.venues ?? config.scope.venues, projects: config.scope.projects });
    if (emptyScope !== undefined) {
      logger.warn({ code: 'VENUE_SCOPE_EMPTY' }, emptyScope);
      warnings.push(`VENUE_SCOPE_EMPTY: ${emptyScope}`);
    }
    if (options.until !== undefined && options.until > clock.today) {
      throw new UsageError(
        `--to ${options.until} is in the future at the API (its date is ${clock.today} UTC)`,
        "the machine's clock is ahead of the API's: set it right, or pass an earlier --to",
      );
    }
    const until = options.until ?? clock.lastCompleteDay;
    const startDate = config.sync.startDate ?? addDays(until, 1 - DEFAULT_HISTORY_DAYS);
    const warehouse: Warehouse = await openWarehouseWhenFree(config.warehouse.path, {
      waitMs: LOCK_WAIT_MS,
      logger,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    try {
      await warehouse.startWriteRun(config.warehouse.memoryLimit);
      const cursors = new Map((await warehouse.readCursors()).map((c) => [cursorKey(c.stream, c.scopeId), c.cursorDate]));
      const grains = summaryGrains(config);
      const horizon = dayHorizonDays(config);
      const inputs = scope.parts.map((part) => ({
        catalogue,
        ...part,
        cursors,
        startDate,
        until,
        today: clock.today,
        lookbackDays: config.sync.lookbackDays,
        windowDays: config.sync.windowDays,
        grains,
        historyGrains: historyGrains(config),
        ...(horizon === undefined ? {} : { dayHorizonDays: horizon }),
      }));
      // Lazy: a chain is planned when the runner takes it (see syncChains).
      const chains = function* (): Generator<Chain> {
        for (const input of inputs) yield* syncChains(input);
      };
      return await executeRun({
        job: options.job ?? 'sync',
        config,
        catalogue,
        logger,
        client,
        warehouse,
        chains,
        cursorFor: (slice: Slice) => ({ mode: 'advance' as const, date: cursorDate(slice, clock) }),
        detail: { until, streams: scope.streams, venues: scope.venues.length, ...shardDetail(scope), clock: clockDetail(clock) },
        warnings,
        lifecycle,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.hurry ? { hurry: options.hurry } : {}),
        ...(options.progressTty ? { progressTty: options.progressTty } : {}),
      });
    } finally {
      await warehouse.close();
    }
  } finally {
    await client.close();
  }
}

/**
 * Where a committed slice moves its cursor: snapshots (roles, accounts) to the day they were
 * taken, analytics to the window's end — but never past the run's last complete day: a cursor
 * says its data is complete, and a day that has not ended (at the API or here) is not
 * (`--to today` loads today, and the next run reads it again).
 */
export function cursorDate(slice: Slice, clock: Pick<RunClock, 'today' | 'lastCompleteDay'>): string {
  return minDate(slice.windowTo, isSnapshot(slice) ? clock.today : clock.lastCompleteDay);
}
