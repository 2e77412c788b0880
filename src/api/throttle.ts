import pLimit from 'p-limit';
import { RateLearner } from './rate-learner.js';
import { createTokenBucket, type TokenBucketOptions } from './token-bucket.js';

/** api.concurrency, api.maxRequestsPerSecond; `onThrottled` is told every cut of the pace (for logging); tests drive `now` and `sleep`. */
export interface ThrottleOptions extends Pick<TokenBucketOptions, 'now' | 'sleep'> {
  readonly concurrency: number;
  readonly maxRequestsPerSecond?: number;
  readonly onThrottled?: (ratePerSecond: number) => void;
}

/** What a task reports about its request (429 or 2xx), with the rate its headers told (readRateLimitHeaders). */
export interface ThrottleSlot {
  throttled(told?: number): void;
  succeeded(told?: number): void;
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Unpaced, the pace lets this many through a second: the requests queued in it go at once. */
const UNPACED = 1e6;
/** The pace holds 50 ms of tokens, under the simulator's 200 ms burst: a stalled event loop sends no burst the API refuses. */
const PACE_BURST_SECONDS = 0.05;

/** Requests in flight and their pace, from the rate learner (rate-learner.ts), plus an optional fixed budget. */
export function createThrottle(options: ThrottleOptions) {
  const now = options.now ?? performance.now.bind(performance);
  const clock = { now, sleep: options.sleep };
  const learner = new RateLearner(Math.max(1, options.concurrency), now, options.onThrottled);
  const slots = pLimit(learner.concurrency);
  const pace = createTokenBucket(UNPACED, { ...clock, burstSeconds: PACE_BURST_SECONDS });
  const budget = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond, clock) : undefined;
  let awaitingPace = 0; // attempts holding a slot while they wait for the pace: demand it does not serve yet

  function follow(): void {
    slots.concurrency = learner.concurrency;
    const rate = learner.pace ?? UNPACED;
    // Lowered: the tokens saved up at the old pace are not spent.
    if (rate !== pace.rate) pace.setRate(rate, rate < pace.rate);
  }

  /** Waits for the pace; true when it had to wait. */
  async function gate(signal: AbortSignal | undefined): Promise<boolean> {
    const before = now();
    awaitingPace += 1;
    try {
      await pace.take(signal);
      if (budget) await budget.take(signal);
    } finally {
      awaitingPace -= 1;
    }
    // A token at hand is taken in microseconds; waiting for one takes a millisecond or more.
    return now() - before >= 1;
  }

  return {
    /** Runs `task` when a slot is free and the pace allows; retries come back through here. */
    run<T>(task: (slot: ThrottleSlot) => Promise<T>, signal?: AbortSignal): Promise<T> {
      const queued = slots.activeCount >= slots.concurrency || slots.pendingCount > 0;
      return slots(async () => {
        signal?.throwIfAborted();
        const attempt = learner.sent((await gate(signal)) || queued);
        return task({
          throttled(told) {
            learner.refused(attempt, told);
            follow();
          },
          succeeded(told) {
            learner.accepted(attempt, slots.pendingCount > 0 || awaitingPace > 0, told);
            follow();
          },
        });
      });
    },
    /** Starts paced under the limit an earlier run found (unless this run has met a 429). */
    remember(limit: number): void {
      learner.remember(limit);
      follow();
    },
    /** Requests in flight allowed now, between 1 and the configured concurrency. */
    get concurrency(): number {
      return slots.concurrency;
    },
    /** The pace (requests/s); undefined when not paced. */
    get learnedRate(): number | undefined {
      return learner.pace;
    },
    /** The API's limit found, told or remembered. */
    get limitFound(): number | undefined {
      return learner.limit;
    },
    get active(): number {
      return slots.activeCount;
    },
  };
}
