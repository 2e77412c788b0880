import type { Config } from '../config/index.js';
import { evaluateFreshness, freshnessTargets } from '../freshness/index.js';
import { todayUtc } from '../calendar/index.js';
import type { RunObserver, StreamFreshness } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { ServeMetrics, startMetricsServer, type MetricsServer } from '../metrics/index.js';
import { hooksOf, journalFullBody, Notifier, notifyObserver } from '../notify/index.js';
import type { ReceiverStats } from '../receiver/index.js';
import { readRunState, runStateObserver } from '../run-state/index.js';
import { openWarehouse } from '../warehouse/index.js';
import { lineageObserver } from '../lineage/index.js';

/** How often serve looks at the receiver's journal (for receiver.journal_full). */
const JOURNAL_WATCH_MS = 5_000;

export interface ServeOps {
  /** The observers of every job's run: notifications, this serve's metrics, the run-state file, lineage. */
  readonly observers: readonly RunObserver[];
  readonly metricsUrl: string | undefined;
  /** What /healthz adds: degraded while a stream is stale or a run was left by a dead process. */
  health(): Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * serve's side of operations: its metrics registry and address, the observers its jobs run
 * with, the freshness of the streams (read at start, then after every run), and a watch on the
 * receiver's journal that sends receiver.journal_full once per episode.
 */
export async function startServeOps(
  config: Config,
  logger: Logger,
  sources: {
    readonly receiver: () => ReceiverStats | undefined;
    readonly runExclusive: <T>(work: () => Promise<T>) => Promise<T>;
    /** serve's whole /healthz answer (jobs, receiver and what this adds), also served beside /metrics. */
    readonly health: () => Record<string, unknown>;
  },
): Promise<ServeOps> {
  const path = config.warehouse.path;
  const metrics = new ServeMetrics({ receiver: sources.receiver, maxJournalBytes: config.receiver.maxJournalBytes, runState: () => readRunState(path) });
  let freshness: readonly StreamFreshness[] = await sources.runExclusive(() => readFreshness(config, logger));
  metrics.runs.setFreshness(freshness);
  const notifier = new Notifier(hooksOf(config), config, logger.child({ component: 'notify' }));
  const observers: RunObserver[] = [
    runStateObserver(logger),
    notifyObserver(config, logger, notifier),
    metrics.observer(),
    {
      name: 'freshness',
      finished: (run) => {
        if (run.freshness) freshness = run.freshness;
      },
    },
    ...lineageObserver(config, logger),
  ];
  let server: MetricsServer | undefined;
  const health = (): Record<string, unknown> => {
    const stale = freshness.filter((f) => f.stale).map((f) => f.stream);
    const running = readRunState(path);
    const orphaned = running?.alive === false;
    return {
      ...(stale.length > 0 || orphaned ? { status: 'degraded' } : {}),
      streams: { stale, targets: Object.fromEntries(freshness.map((f) => [f.stream, { daysBehind: f.daysBehind, maxAgeDays: f.maxAgeDays }])) },
      ...(running ? { run: { ...running.state, alive: running.alive, ageSeconds: running.ageSeconds } } : {}),
    };
  };
  if (config.metrics.enabled) {
    server = await startMetricsServer({
      host: config.metrics.host,
      port: config.metrics.port,
      metrics: async () => ({ text: await metrics.text(), contentType: metrics.registry.contentType }),
      health: sources.health,
    });
    logger.info({ url: server.url }, `metrics at ${server.url}/metrics`);
  }
  const watch = watchJournal(config, sources.receiver, notifier, logger);
  return {
    observers,
    metricsUrl: server?.url,
    health,
    async stop() {
      clearInterval(watch);
      await server?.close();
    },
  };
}

/** The streams' freshness from the warehouse, read-only; none when it cannot be read now. */
async function readFreshness(config: Config, logger: Logger): Promise<StreamFreshness[]> {
  try {
    const warehouse = await openWarehouse(config.warehouse.path, { readOnly: true });
    try {
      return evaluateFreshness(await warehouse.readStreamCursors(), freshnessTargets(config), todayUtc());
    } finally {
      await warehouse.close();
    }
  } catch (error) {
    logger.debug({ err: error }, 'freshness not read at start (no warehouse yet, or it is held); the first run tells it');
    return [];
  }
}

/** receiver.journal_full once per episode: from the first refusal until the journal is below half its cap. */
function watchJournal(config: Config, receiver: () => ReceiverStats | undefined, notifier: Notifier, logger: Logger): NodeJS.Timeout {
  let refused = 0;
  let episode = false;
  const timer = setInterval(() => {
    const stats = receiver();
    if (!stats) return;
    const { refusedFull, unmergedBytes } = stats.journal;
    if (refusedFull > refused && !episode) {
      episode = true;
      const body = journalFullBody({ unmergedBytes, maxJournalBytes: config.receiver.maxJournalBytes, refused: refusedFull });
      logger.warn({ unmergedBytes, refused: refusedFull }, body.title);
      void notifier.send(body).catch((error: unknown) => logger.warn({ err: error }, 'could not send receiver.journal_full'));
    } else if (episode && unmergedBytes < config.receiver.maxJournalBytes / 2) {
      episode = false;
    }
    refused = refusedFull;
  }, JOURNAL_WATCH_MS);
  timer.unref();
  return timer;
}
