import pLimit from 'p-limit';
import { createAdaptiveRate, type AdaptiveRate } from './adaptive-rate.js';
import { createTokenBucket, type TokenBucket, type TokenBucketOptions } from './token-bucket.js';

export interface ThrottleOptions {
  /** Configured concurrency (api.concurrency): the ceiling of requests in flight. */
  readonly concurrency: number;
  /** An explicit budget (api.maxRequestsPerSecond), on top of what the client learns. */
  readonly maxRequestsPerSecond?: number;
  /** Told about every decrease of the learned rate (for logging). */
  readonly onThrottled?: (ratePerSecond: number) => void;
  /** Milliseconds; tests drive it (with `sleep`). */
  readonly now?: () => number;
  readonly sleep?: TokenBucketOptions['sleep'];
}

/** What a running task reports back about its request. */
export interface ThrottleSlot {
  /** The API answered 429. */
  throttled(): void;
  /** The API answered 2xx. */
  succeeded(): void;
}

export interface Throttle {
  /**
   * Runs `task` when a slot is free and the pace allows. One call is one attempt: retries come
   * back through here, so a retry sleeping its backoff holds no slot.
   */
  run<T>(task: (slot: ThrottleSlot) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** The current concurrency limit, between 1 and the configured concurrency. */
  readonly concurrency: number;
  /** The pace learned from 429s (requests/s); undefined when not paced. */
  readonly learnedRate: number | undefined;
  /** The API's limit found in this run, or remembered (see AdaptiveRate.limitFound). */
  readonly limitFound: number | undefined;
  /** Starts paced just under the limit an earlier run found (before this run is refused). */
  remember(limit: number): void;
  readonly active: number;
  readonly pending: number;
}

/**
 * Pacing holds 50 ms of tokens: less than a rate limit's usual burst (the simulator's default is
 * 200 ms), so a stalled event loop does not make the client send a burst the API refuses.
 */
const PACING_BURST_SECONDS = 0.05;

/**
 * Global concurrency limit and pace, adapted to the API's answers (see adaptive-rate.ts), plus an
 * optional explicit requests-per-second budget.
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const bucketOptions: TokenBucketOptions = {
    ...(options.now ? { now: options.now } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const adaptive: AdaptiveRate = createAdaptiveRate({
    ceiling: options.concurrency,
    ...(options.now ? { now: options.now } : {}),
    ...(options.onThrottled ? { onThrottled: options.onThrottled } : {}),
  });
  const limit = pLimit(adaptive.concurrency);
  const now = options.now ?? performance.now.bind(performance);
  const budget: TokenBucket | undefined = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond, bucketOptions) : undefined;
  let pace: TokenBucket | undefined;
  // Attempts holding a slot while they wait for the pace: demand the rate does not serve yet.
  let awaitingPace = 0;

  function follow(): void {
    if (limit.concurrency !== adaptive.concurrency) limit.concurrency = adaptive.concurrency;
    const rate = adaptive.pacing;
    // Released (or a decrease undone): not paced any more, and the requests waiting for the old
    // pace go now (left to it, each went on at the old pace, and at 14/s under a limit halved to
    // 10/s each was refused in a wave of its own: the rate was halved down to 0.5/s).
    if (rate === undefined) {
      pace?.open();
      pace = undefined;
    } else if (pace === undefined) pace = createTokenBucket(rate, { ...bucketOptions, burstSeconds: PACING_BURST_SECONDS, initialTokens: 0 });
    else if (rate < pace.rate) {
      pace.setRate(rate);
      pace.drain();
    } else pace.setRate(rate);
  }

  return {
    run(task, signal) {
      const queued = limit.activeCount >= limit.concurrency || limit.pendingCount > 0;
      return limit(async () => {
        signal?.throwIfAborted();
        const gated = pace !== undefined || budget !== undefined;
        const before = now();
        if (gated) awaitingPace += 1;
        try {
          if (pace) await pace.take(signal);
          if (budget) await budget.take(signal);
        } finally {
          if (gated) awaitingPace -= 1;
        }
        // A token at hand is taken in microseconds; waiting for one takes a millisecond or more.
        const attempt = adaptive.sent(queued || now() - before >= 1);
        try {
          return await task({
            throttled() {
              adaptive.throttled(attempt);
              follow();
            },
            succeeded() {
              adaptive.succeeded(attempt, limit.pendingCount > 0 || awaitingPace > 0);
              follow();
            },
          });
        } finally {
          adaptive.ended(attempt);
        }
      });
    },
    get concurrency() {
      return limit.concurrency;
    },
    get learnedRate() {
      return adaptive.learned;
    },
    get limitFound() {
      return adaptive.limitFound;
    },
    remember(remembered) {
      adaptive.remember(remembered);
      follow();
    },
    get active() {
      return limit.activeCount;
    },
    get pending() {
      return limit.pendingCount;
    },
  };
}
