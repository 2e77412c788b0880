import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EtlError } from '../errors/index.js';
import { registerSecret, type Logger } from '../log/index.js';
import { openWarehouse } from '../warehouse/index.js';
import { createIntakeHandler } from './intake-handler.js';
import { JournalWriter } from './journal-writer.js';
import type { MergeResult } from './merge-result.js';
import { MergeScheduler } from './merge-scheduler.js';
import { IntakeCounters, type ReceiverStats } from './receiver-stats.js';
import { openForEachMerge, type OpenWarehouseForMerge, type RunExclusive, type WarehouseAccess } from './warehouse-access.js';

export interface StartReceiverOptions {
  readonly host: string;
  /** 0 picks a free port (see `port` of the result). */
  readonly port: number;
  /** The complete expected `Authorization` header value (`receiver.authorization`). */
  readonly authorization: string;
  readonly maxBodyBytes: number;
  readonly journalDir: string;
  /** The warehouse to merge into, opened for each merge and closed right after. */
  readonly warehousePath?: string;
  /** How to open `warehousePath`; defaults to the warehouse layer's `openWarehouse`. */
  readonly openWarehouse?: OpenWarehouseForMerge;
  /** Queues each merge behind the process's other warehouse writers (with `warehousePath`). */
  readonly runExclusive?: RunExclusive;
  /** Instead of `warehousePath`: a warehouse this process already holds (see `sharedWarehouse`). */
  readonly warehouse?: WarehouseAccess;
  readonly logger: Logger;
  /** Pause between merges while events wait; default 2000. 0: merge only on `mergeNow()`. */
  readonly mergeIntervalMs?: number;
  /** GET routes served on the same port, by exact path (e.g. `/healthz` of `venue-etl serve`). */
  readonly routes?: Readonly<Record<string, (request: IncomingMessage, response: ServerResponse) => void>>;
  /** Journal segment size before rotation; default 64 MiB. */
  readonly maxSegmentBytes?: number;
  /**
   * Bytes of acknowledged events the journal may hold before the warehouse has taken them
   * (`receiver.maxJournalBytes`); beyond it events get 503 with Retry-After. Default: no cap.
   */
  readonly maxJournalBytes?: number;
}

export interface CloseOptions {
  /**
   * Merge what the journal holds before closing, for at most this long; what is left is logged
   * and merged at the next start. Default 0: no merge.
   */
  readonly mergeTimeoutMs?: number;
  /** Aborted: stop waiting — drop connections still sending, end the merge after its current transaction. */
  readonly hurry?: AbortSignal;
}

export interface RunningReceiver {
  /** `http://host:port` (events go to `${url}/users/`). */
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting, lets in-flight requests finish, waits for a running merge, fsyncs the
   * journal, merges it (with `mergeTimeoutMs`) and closes it.
   */
  close(options?: CloseOptions): Promise<void>;
  /** Merges everything journaled so far; `status: 'locked'` while another process writes the warehouse. */
  mergeNow(): Promise<MergeResult>;
  readonly stats: ReceiverStats;
}

/**
 * Starts the upsert event receiver (docs/receiver.md): HTTP intake into a durable
 * journal, and a merge of the journal into the warehouse whenever the warehouse can be written.
 */
export async function startReceiver(options: StartReceiverOptions): Promise<RunningReceiver> {
  if (options.authorization.trim() === '') {
    // An empty expected value would let any request without credentials in.
    throw new EtlError('VENUE_RECEIVER_CONFIG', 'the receiver needs an authorization value to compare requests with', {
      hint: 'set receiver.authorization (e.g. "${VENUE_RECEIVER_AUTHORIZATION}") to the complete header value stored in the client panel',
    });
  }
  const logger = options.logger.child({ component: 'receiver' });
  registerSecret(options.authorization);
  const access = warehouseAccessOf(options);
  const journal = await JournalWriter.open({
    dir: options.journalDir,
    logger,
    ...(options.maxSegmentBytes === undefined ? {} : { maxSegmentBytes: options.maxSegmentBytes }),
    ...(options.maxJournalBytes === undefined ? {} : { maxUnmergedBytes: options.maxJournalBytes }),
  });
  const scheduler = new MergeScheduler({
    journalDir: options.journalDir,
    access,
    intervalMs: options.mergeIntervalMs ?? 2000,
    logger,
    activeSegment: () => journal.activeSegment,
    journal,
  });
  const counters = new IntakeCounters();
  let closing: Promise<void> | undefined;
  const intake = createIntakeHandler({
    authorization: options.authorization,
    maxBodyBytes: options.maxBodyBytes,
    append: (body, receivedAtMs) => journal.append(body, receivedAtMs),
    logger,
    counters,
    onAccepted: () => scheduler.markDirty(),
    isClosing: () => closing !== undefined,
  });
  const routes = options.routes ?? {};
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, (request, response) => {
    // Extra GET routes of the hosting process (serve's /healthz) share the port; all else is intake.
    const route = request.method === 'GET' ? routes[(request.url ?? '').split('?')[0] ?? ''] : undefined;
    if (route) route(request, response);
    else intake(request, response);
  });
  try {
    await listen(server, options.host, options.port);
  } catch (error) {
    await journal.close();
    throw new EtlError('VENUE_RECEIVER_LISTEN', `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`, {
      hint: 'pick another receiver.port, or stop the process that uses it',
      cause: error,
    });
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  scheduler.start();
  logger.info({ url, journalDir: options.journalDir, segment: journal.activeSegment }, 'event receiver listening');

  return {
    url,
    port,
    close: (closeOptions = {}) =>
      (closing ??= (async () => {
        const { hurry, mergeTimeoutMs = 0 } = closeOptions;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Hurried: a sender still writing its body is cut off; it was not answered, so it retries.
        const cutOff = (): void => server.closeAllConnections();
        if (hurry?.aborted) cutOff();
        else hurry?.addEventListener('abort', cutOff, { once: true });
        await closed;
        hurry?.removeEventListener('abort', cutOff);
        await scheduler.stop();
        await journal.seal();
        if (mergeTimeoutMs > 0) await mergeBeforeClose(scheduler, journal, mergeTimeoutMs, hurry, logger);
        await journal.close();
        logger.info({ accepted: counters.accepted, unmergedBytes: journal.unmergedBytes }, 'event receiver stopped');
      })()),
    mergeNow: () => scheduler.mergeNow(),
    get stats(): ReceiverStats {
      return {
        requests: counters.requests,
        accepted: counters.accepted,
        statuses: { ...counters.statuses },
        journal: journal.stats,
        merged: { ...scheduler.totals },
        lastMerge: scheduler.last,
        mergeFailing: scheduler.failing,
      };
    },
  };
}

/** The stop's merge; what it cannot finish is said once, at warn, with where it will go. */
async function mergeBeforeClose(
  scheduler: MergeScheduler,
  journal: JournalWriter,
  timeoutMs: number,
  hurry: AbortSignal | undefined,
  logger: Logger,
): Promise<void> {
  const result = await scheduler.finalMerge(timeoutMs, hurry);
  if (result.status === 'merged') {
    logger.info({ records: result.records, inserted: result.inserted, durationMs: result.durationMs }, 'journal merged before stopping');
    return;
  }
  const why =
    result.status === 'locked'
      ? 'the warehouse stayed locked by another process'
      : result.status === 'stopped'
        ? hurry?.aborted
          ? 'a second signal cut the merge short'
          : `the merge took longer than ${timeoutMs} ms`
        : 'the merge failed';
  logger.warn(
    { status: result.status, merged: result.records, unmergedBytes: journal.unmergedBytes, err: result.error },
    `acknowledged events left in the journal at stop (${why}); they are merged at the next start, or by \`venue-etl merge-events\``,
  );
}

function warehouseAccessOf(options: StartReceiverOptions): WarehouseAccess {
  if (options.warehouse) return options.warehouse;
  if (options.warehousePath === undefined) {
    throw new EtlError('VENUE_RECEIVER_CONFIG', 'the receiver needs a warehouse to merge events into', {
      hint: 'pass warehousePath (or a shared warehouse handle)',
    });
  }
  return openForEachMerge(options.warehousePath, options.openWarehouse ?? ((path) => openWarehouse(path)), options.runExclusive);
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
