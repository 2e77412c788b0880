import type { IncomingMessage, ServerResponse } from 'node:http';
import { commandProblems, ConfigError, type Config } from '../config/index.js';
import { startDashboardServer, type RunningDashboardServer } from '../dashboard/index.js';
import type { Logger } from '../log/index.js';
import { journalDirOf, startReceiver, type RunningReceiver } from '../receiver/index.js';
import { Mutex } from '../warehouse/mutex.js';
import { refuseNewerWarehouse } from '../warehouse/version-check.js';
import type { JobDefinition } from './job.js';
import { jobContext } from './job-context.js';
import { resolveSchedules } from './schedules.js';
import { Scheduler } from './scheduler.js';
import { sendJson } from '../infra/send-json.js';
import { acquireServeLock } from './serve-lock.js';
import { serveHealth } from './serve-health.js';
import { startServeOps, type ServeOps } from '../ops/index.js';
import { venueLabelInput } from '../venue-names/index.js';

export interface RunningServe {
  readonly scheduler: Scheduler;
  readonly receiver: RunningReceiver | undefined;
  /** Base URL of the HTTP server (receiver + /healthz), when the receiver is enabled. */
  readonly url: string | undefined;
  /** Base URL of the live dashboard, when `dashboard.enabled`. */
  readonly dashboardUrl: string | undefined;
  /** Base URL of GET /metrics and /healthz, when `metrics.enabled`. */
  readonly metricsUrl: string | undefined;
  health(): Record<string, unknown>;
  /**
   * Stops scheduling, lets the running job commit what is in flight and record its run, closes
   * the receiver after merging its journal (for at most STOP_MERGE_TIMEOUT_MS). `hurry`
   * aborting (a second signal) stops every wait; runs are still recorded.
   */
  stop(options?: { readonly reason?: unknown; readonly hurry?: AbortSignal }): Promise<void>;
}

/**
 * How long a stop merges the receiver's journal. The merge takes ~20,000 events/s (B6), so 20 s
 * covers far more than a normal stop finds; a longer backlog (a warehouse locked for hours) is
 * left for the next start instead of holding the stop.
 */
const STOP_MERGE_TIMEOUT_MS = 20_000;

/**
 * The long-running process: cron jobs from jobs/, the event receiver and GET /healthz. One per
 * warehouse (a PID file). Everything that writes the warehouse — jobs and the receiver's merges —
 * queues behind one writer mutex and opens the file only for its write, so CLI commands in other
 * processes can use the warehouse between them.
 */
export async function startServe(config: Config, jobs: readonly JobDefinition[], logger: Logger): Promise<RunningServe> {
  const schedules = resolveSchedules(config, jobs);
  // Everything serve and its jobs will need, before anything starts: not at the first job.
  const problems = commandProblems('serve', config);
  if (problems.length > 0) throw new ConfigError('config', problems);
  const lock = acquireServeLock(config.warehouse.path);
  const writers = new Mutex();
  let ops: ServeOps | undefined;
  const scheduler = new Scheduler(
    schedules,
    (name, signal, hurry) => jobContext(config, logger.child({ job: name }), signal, hurry, name, ops?.observers),
    writers,
    logger,
  );
  const started = Date.now();
  let receiver: RunningReceiver | undefined;
  let dashboard: RunningDashboardServer | undefined;
  const health = (): Record<string, unknown> => ({
    ...serveHealth(receiver?.stats),
    pid: process.pid,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    jobs: scheduler.status(),
    ...(receiver ? { receiver: receiver.stats } : {}),
    ...ops?.health(),
  });
  try {
    ops = await startServeOps(config, logger, { receiver: () => receiver?.stats, runExclusive: (work) => writers.run(work), health: () => health() });
    if (config.receiver.enabled) {
      receiver = await startReceiver({
        host: config.receiver.host,
        port: config.receiver.port,
        authorization: config.receiver.authorization!,
        maxBodyBytes: config.receiver.maxBodyBytes,
        maxJournalBytes: config.receiver.maxJournalBytes,
        journalDir: journalDirOf(config),
        logger,
        // Merges open the file for their write only and queue behind the jobs' writes.
        warehousePath: config.warehouse.path,
        runExclusive: (section) => writers.run(section),
        routes: { '/healthz': (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 200, health()) },
      });
    }
    if (config.dashboard.enabled) {
      dashboard = await startDashboardServer({
        host: config.dashboard.host,
        port: config.dashboard.port,
        warehousePath: config.warehouse.path,
        request: () => ({ tz: config.dashboard.timezone, staleAfterDays: config.sync.staleAfterDays }),
        labels: venueLabelInput(config),
        logger: logger.child({ component: 'dashboard' }),
        ...(config.dashboard.authorization === undefined ? {} : { authorization: config.dashboard.authorization }),
      });
      logger.info({ url: dashboard.url }, `dashboard at ${dashboard.url}/`);
    }
    // After the receiver listens (a restarted serve answers senders at once; events acknowledged
    // meanwhile stay in the journal for a build that knows the schema), in turn with the merges.
    await writers.run(() => refuseNewerWarehouse(config.warehouse.path));
    scheduler.start();
  } catch (error) {
    await scheduler.stop();
    await ops?.stop();
    await dashboard?.close();
    await receiver?.close();
    lock.release();
    throw error;
  }
  return {
    scheduler,
    receiver,
    url: receiver?.url,
    dashboardUrl: dashboard?.url,
    metricsUrl: ops?.metricsUrl,
    health,
    async stop(options = {}) {
      const { hurry } = options;
      logger.info('stopping: no new jobs; the running job commits what is in flight, the journal is merged');
      const hurried = (): void =>
        logger.warn({ reason: String(hurry?.reason) }, 'stopping now: not waiting for commits or the merge any more (runs are still recorded)');
      hurry?.addEventListener('abort', hurried, { once: true });
      try {
        await scheduler.stop(options);
        await ops?.stop();
        await dashboard?.close();
        await receiver?.close({ mergeTimeoutMs: STOP_MERGE_TIMEOUT_MS, ...(hurry ? { hurry } : {}) });
      } finally {
        hurry?.removeEventListener('abort', hurried);
        lock.release();
      }
      logger.info('stopped');
    },
  };
}
