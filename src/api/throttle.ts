import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { RateLearner } from './rate-learner.js';
import type { ToldLimit } from './rate-limit-headers.js';
import { createTokenBucket, type TokenBucketOptions } from './token-bucket.js';

export interface ThrottleOptions {
  /** api.concurrency: the ceiling of requests in flight. */
  readonly concurrency: number;
  /** api.maxRequestsPerSecond: a fixed budget on top of what the client learns. */
  readonly maxRequestsPerSecond?: number;
  /** Told about every cut of the pace (for logging). */
  readonly onThrottled?: (ratePerSecond: number) => void;
  /** Milliseconds; tests drive it (with `sleep`). */
  readonly now?: () => number;
  readonly sleep?: TokenBucketOptions['sleep'];
}

/** What a task reports about its request (429 or 2xx), with the rate-limit headers of the answer. */
export interface ThrottleSlot {
  throttled(told?: ToldLimit): void;
  succeeded(told?: ToldLimit): void;
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Unpaced, the pace lets this many through a second: the requests queued in it go at once. */
const UNPACED = 1e6;
/** The pace holds 50 ms of tokens, under the simulator's 200 ms burst: a stalled event loop sends no burst the API refuses. */
const PACE_BURST_SECONDS = 0.05;

/** Requests in flight and their pace, from the rate learner (rate-learner.ts), plus an optional fixed budget. */
export function createThrottle(options: ThrottleOptions) {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const clock = { now, sleep: wait };
  const learner = new RateLearner(Math.max(1, options.concurrency), now, options.onThrottled);
  const slots = pLimit(learner.concurrency);
  const pace = createTokenBucket(UNPACED, { ...clock, burstSeconds: PACE_BURST_SECONDS });
  const budget = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond, clock) : undefined;
  // Attempts holding a slot while they wait for the pace: demand the pace does not serve yet.
  let awaitingPace = 0;

  function follow(): void {
    slots.concurrency = learner.concurrency;
    const rate = learner.pace ?? UNPACED;
    // Lowered: the tokens saved up at the old pace are not spent.
    if (rate !== pace.rate) pace.setRate(rate, rate < pace.rate);
  }

  /** Waits for the pace (and a pause the API asked for); true when it had to wait. */
  async function gate(signal: AbortSignal | undefined): Promise<boolean> {
    const before = now();
    awaitingPace += 1;
    try {
      let paused = false;
      for (; learner.pausedUntil > now(); paused = true) await wait(learner.pausedUntil - now(), signal);
      // The tokens saved up meanwhile, spent at once, would meet a quota just refilled.
      if (paused) pace.setRate(pace.rate, true);
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
    /** Starts paced under the limit an earlier run found (before this run is refused). */
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
