import type { Logger } from '../log/index.js';

export interface RequestCounts {
  /** Attempts sent, retries included. */
  readonly requests: number;
  readonly retries: number;
  /** JSON:API documents received: each page of a list, and each single document (one page). */
  readonly pages: number;
  /** Calls that ended in an error for the caller (after any retries), aborted ones excepted. */
  readonly failures: number;
  /** Calls given up because the caller's signal aborted (a stopping run): not failures. */
  readonly aborted: number;
  /** 429 answers. */
  readonly throttled: number;
  /** 2xx answers. */
  readonly ok: number;
  /** 5xx answers. */
  readonly serverErrors: number;
  /** Response body bytes. */
  readonly bytes: number;
  /** From the first request sent to the last answer received. */
  readonly durationMs: number;
}

export interface ClientStats extends RequestCounts {
  /** The same counts per `RequestContext.stream`. */
  readonly byStream: ReadonlyMap<string, RequestCounts>;
  /** The throttle's current concurrency limit. */
  readonly concurrency: number;
  /** The pace learned from 429s (requests/s), undefined when not paced. */
  readonly learnedRate?: number | undefined;
  /** The API's rate limit found in this run or remembered from an earlier one (requests/s). */
  readonly rateLimit?: number | undefined;
}

type Counter = Exclude<keyof RequestCounts, 'durationMs'>;

class Counts implements RequestCounts {
  requests = 0;
  retries = 0;
  pages = 0;
  failures = 0;
  aborted = 0;
  throttled = 0;
  ok = 0;
  serverErrors = 0;
  bytes = 0;
  private firstAt: number | undefined;
  private lastAt: number | undefined;

  get durationMs(): number {
    return this.firstAt === undefined || this.lastAt === undefined ? 0 : Math.round(this.lastAt - this.firstAt);
  }

  markStart(at: number): void {
    this.firstAt ??= at;
  }

  markEnd(at: number): void {
    this.lastAt = at;
  }

  toJSON(): RequestCounts {
    const { requests, retries, pages, failures, aborted, throttled, ok, serverErrors, bytes, durationMs } = this;
    return { requests, retries, pages, failures, aborted, throttled, ok, serverErrors, bytes, durationMs };
  }
}

/** The throttle's state the counts report (live). */
export interface PacingView {
  readonly concurrency: number;
  readonly learnedRate: number | undefined;
  readonly limitFound: number | undefined;
}

/** Counts kept in place (no allocation per request) for the whole client and per stream. */
export class StatsRecorder {
  private readonly total = new Counts();
  private readonly streams = new Map<string, Counts>();

  /** A live, read-only view for `ApiClient.stats`. */
  readonly view: ClientStats;

  constructor(private readonly pacing: PacingView) {
    const { total, streams } = this;
    this.view = {
      get requests() {
        return total.requests;
      },
      get retries() {
        return total.retries;
      },
      get pages() {
        return total.pages;
      },
      get failures() {
        return total.failures;
      },
      get aborted() {
        return total.aborted;
      },
      get throttled() {
        return total.throttled;
      },
      get ok() {
        return total.ok;
      },
      get serverErrors() {
        return total.serverErrors;
      },
      get bytes() {
        return total.bytes;
      },
      get durationMs() {
        return total.durationMs;
      },
      get concurrency() {
        return pacing.concurrency;
      },
      get learnedRate() {
        return pacing.learnedRate;
      },
      get rateLimit() {
        return pacing.limitFound;
      },
      byStream: streams,
    };
  }

  add(stream: string | undefined, counter: Counter, amount = 1): void {
    this.total[counter] += amount;
    if (stream !== undefined) this.forStream(stream)[counter] += amount;
  }

  requestStarted(stream: string | undefined, at: number): void {
    this.add(stream, 'requests');
    this.total.markStart(at);
    if (stream !== undefined) this.forStream(stream).markStart(at);
  }

  responseEnded(stream: string | undefined, at: number): void {
    this.total.markEnd(at);
    if (stream !== undefined) this.forStream(stream).markEnd(at);
  }

  /**
   * The totals in one info line (a run over 13 streams used to print 13 wrapping lines), the
   * counts of each stream at debug.
   */
  logSummary(logger: Logger): void {
    if (logger.isLevelEnabled('debug')) {
      for (const [stream, counts] of this.streams) logger.debug({ stream, ...counts.toJSON() }, 'api summary of a stream');
    }
    const { concurrency, learnedRate, limitFound } = this.pacing;
    logger.info(
      {
        ...this.total.toJSON(),
        concurrency,
        ...(learnedRate === undefined ? {} : { learnedRequestsPerSecond: Math.round(learnedRate * 10) / 10 }),
        ...(limitFound === undefined ? {} : { rateLimitPerSecond: Math.round(limitFound * 10) / 10 }),
      },
      'api summary',
    );
  }

  private forStream(stream: string): Counts {
    let counts = this.streams.get(stream);
    if (!counts) {
      counts = new Counts();
      this.streams.set(stream, counts);
    }
    return counts;
  }
}
