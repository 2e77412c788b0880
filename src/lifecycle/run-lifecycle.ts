import type { Logger } from '../log/index.js';
import type {
  DriftSeen,
  HeldSnapshot,
  FailedScope,
  LiveProgress,
  RunBegun,
  RunDatasets,
  RunEnded,
  RunIdentity,
  RunObserver,
  RunOutcome,
  RunTotals,
  StreamFreshness,
  StreamRequests,
} from './run-events.js';

/** Failed slices a run's end event names; the rest are counted (a body must stay short at 5,000 venues). */
export const MAX_FAILURES_KEPT = 20;

/**
 * How often observers read a run's progress: the run-state file is replaced this often, so
 * `status` shows figures at most this old while a run holds the warehouse. One timer per run,
 * nothing per request or slice.
 */
export const PROGRESS_INTERVAL_MS = 2_000;

export interface BeginInfo {
  readonly runId: string;
  readonly startedAt?: Date;
  readonly streams: readonly string[];
  readonly previousStatus?: RunOutcome | undefined;
  /** Read every PROGRESS_INTERVAL_MS while the run works. */
  readonly live: () => LiveProgress;
}

export interface EndInfo {
  readonly outcome: RunOutcome;
  readonly interrupted?: boolean;
  readonly totals?: RunTotals;
  readonly error?: RunEnded['error'];
  readonly drift?: readonly DriftSeen[];
  readonly snapshotsHeld?: readonly HeldSnapshot[];
  /** When the run failed before it began (no run id from the warehouse): the id it is recorded under. */
  readonly runId?: string;
}

/**
 * The one seam of a run's life: started → progress → finished. The runner calls it at three
 * places; notifications, metrics, the run-state file and lineage observe it and nothing else.
 * Observers cannot slow or fail the run: their hooks' errors are logged, their promises are
 * awaited only by `finish`, and each bounds its own network time.
 */
export class RunLifecycle {
  private begun: RunBegun | undefined;
  private live: (() => LiveProgress) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly pending: Promise<unknown>[] = [];
  private readonly failures: FailedScope[] = [];
  private failuresTotal = 0;
  private lastError: string | undefined;
  private freshness: readonly StreamFreshness[] | undefined;
  private datasets: RunDatasets | undefined;
  private requestsByStream: readonly StreamRequests[] | undefined;
  private rowsByTable: Readonly<Record<string, number>> | undefined;
  private readonly created = new Date();

  constructor(
    readonly identity: RunIdentity,
    private readonly observers: readonly RunObserver[],
    private readonly logger: Logger,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  /** Whether anyone observes the run (a run without observers skips the reads made only for them). */
  get observed(): boolean {
    return this.observers.length > 0;
  }

  /** Whether the run got as far as its first slice's turn (a recorded, started run). */
  get hasBegun(): boolean {
    return this.begun !== undefined;
  }

  get runId(): string | undefined {
    return this.begun?.runId;
  }

  begin(info: BeginInfo): void {
    if (this.begun) return;
    this.begun = { ...this.identity, runId: info.runId, startedAt: info.startedAt ?? new Date(), streams: info.streams, previousStatus: info.previousStatus };
    this.live = info.live;
    for (const observer of this.observers) this.call(observer, 'started', () => observer.started?.(this.begun!));
    if (this.observers.some((o) => o.progress)) {
      this.timer = setInterval(() => this.tick(), this.intervalMs);
      this.timer.unref();
      this.tick();
    }
  }

  /** A failed slice (called from the runner's failure path, never the success path). */
  sliceFailed(failure: FailedScope): void {
    this.failuresTotal += 1;
    if (this.failures.length < MAX_FAILURES_KEPT) this.failures.push(failure);
    this.lastError = `${failure.stream} ${failure.scopeId}: ${failure.code}`;
  }

  /** The failed slices kept (the first MAX_FAILURES_KEPT). */
  get failedScopes(): readonly FailedScope[] {
    return this.failures;
  }

  /** The last failed slice, for the live progress. */
  get lastFailure(): string | undefined {
    return this.lastError;
  }

  /** What the run knows just before it lets the warehouse go: freshness, datasets read and written. */
  annotate(extra: {
    readonly freshness?: readonly StreamFreshness[];
    readonly datasets?: RunDatasets;
    readonly requestsByStream?: readonly StreamRequests[];
    readonly rowsByTable?: Readonly<Record<string, number>>;
  }): void {
    if (extra.freshness) this.freshness = extra.freshness;
    if (extra.datasets) this.datasets = extra.datasets;
    if (extra.requestsByStream) this.requestsByStream = extra.requestsByStream;
    if (extra.rowsByTable) this.rowsByTable = extra.rowsByTable;
  }

  /** The end of the run: every observer's `finished`, then waits for what they deliver (bounded by them). */
  async finish(end: EndInfo): Promise<RunEnded> {
    this.stopTimer();
    const finishedAt = new Date();
    const begun: RunBegun = this.begun ?? { ...this.identity, runId: end.runId ?? 'unrecorded', startedAt: this.created, streams: [] };
    const ended: RunEnded = {
      ...begun,
      outcome: end.outcome,
      interrupted: end.interrupted ?? false,
      finishedAt,
      durationMs: finishedAt.getTime() - begun.startedAt.getTime(),
      beforeFirstSlice: this.begun === undefined,
      totals: end.totals && {
        ...end.totals,
        ...(this.requestsByStream ? { requestsByStream: this.requestsByStream } : {}),
        ...(this.rowsByTable ? { rowsByTable: this.rowsByTable } : {}),
      },
      failures: this.failures,
      failuresTotal: this.failuresTotal,
      error: end.error,
      drift: end.drift ?? [],
      snapshotsHeld: end.snapshotsHeld,
      freshness: this.freshness,
      datasets: this.datasets,
    };
    for (const observer of this.observers) this.call(observer, 'finished', () => observer.finished?.(ended));
    await Promise.allSettled(this.pending);
    return ended;
  }

  private tick(): void {
    if (!this.begun || !this.live) return;
    let live: LiveProgress;
    try {
      live = { ...this.live(), lastError: this.lastError };
    } catch (error) {
      this.logger.debug({ err: error }, 'could not read the run progress');
      return;
    }
    for (const observer of this.observers) if (observer.progress) this.call(observer, 'progress', () => observer.progress?.(this.begun!, live));
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private call(observer: RunObserver, hook: string, work: () => void | Promise<void> | undefined): void {
    const failed = (error: unknown): void =>
      this.logger.warn({ err: error, observer: observer.name, hook }, `run ${hook}: the ${observer.name} observer failed; the run is not affected`);
    try {
      const result = work();
      if (result instanceof Promise) this.pending.push(result.catch(failed));
    } catch (error) {
      failed(error);
    }
  }
}
