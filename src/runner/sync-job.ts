import { buildCatalogue, isSnapshotEndpoint } from '../catalogue/index.js';
import { summaryGrains, type ApiReadyConfig as Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { addDays, minDate, planSync, todayUtc } from '../plan/index.js';
import type { Slice } from '../plan/index.js';
import { executeRun, type RunResult } from './execute-run.js';
import { checkAccess, clientFor } from './open-run.js';
import { resolveScope } from './scope.js';
import { openWarehouseWhenFree, type Warehouse } from '../warehouse/index.js';
import { cursorKey } from '../plan/index.js';

export interface SyncOptions {
  readonly streams?: readonly string[];
  readonly venues?: readonly string[];
  /** Last day to extract; yesterday (UTC) by default. */
  readonly until?: string;
  readonly job?: string;
  readonly signal?: AbortSignal;
  /** A second signal: the run stops without waiting for queued commits, and is still recorded. */
  readonly hurry?: AbortSignal;
  readonly now?: Date;
  readonly progressTty?: NodeJS.WriteStream;
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
 */
export async function runSync(
  config: Config,
  logger: Logger,
  options: SyncOptions = {},
): Promise<RunResult> {
  const catalogue = buildCatalogue(config);
  const scope = resolveScope(config, catalogue, options.streams, options.venues);
  const today = todayUtc(options.now);
  const until = options.until ?? addDays(today, -1);
  if (until > today) throw new UsageError(`--until ${until} is in the future (today is ${today} UTC)`);
  const startDate = config.sync.startDate ?? addDays(until, 1 - DEFAULT_HISTORY_DAYS);
  const client = clientFor(config, logger);
  try {
    await checkAccess(client, options.signal);
    const warehouse: Warehouse = await openWarehouseWhenFree(config.warehouse.path, { waitMs: LOCK_WAIT_MS, logger, ...(options.signal ? { signal: options.signal } : {}) });
    try {
      const cursors = new Map((await warehouse.readCursors()).map((c) => [cursorKey(c.stream, c.scopeId), c.cursorDate]));
      const grains = summaryGrains(config);
      const chains = planSync({
        catalogue, ...scope, cursors, startDate, until, today,
        lookbackDays: config.sync.lookbackDays,
        windowDays: config.sync.windowDays,
        grains,
      });
      // Snapshots (roles, accounts) are stamped with today; analytics advance to the window's end,
      // but never past yesterday: a cursor says its data is complete, and today's is not yet
      // (`--until today` loads today, and the next run must read it again).
      const lastComplete = addDays(today, -1);
      const cursorFor = (slice: Slice) => ({
        mode: 'advance' as const,
        date: isSnapshot(slice) ? slice.windowTo : minDate(slice.windowTo, lastComplete),
      });
      return await executeRun({
        job: options.job ?? 'sync',
        config, logger, client, warehouse, chains, cursorFor,
        detail: { until, streams: scope.streams, venues: scope.venues.length },
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
