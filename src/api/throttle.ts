import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { createRateLearner } from './rate-learner.js';
import type { ToldLimit } from './rate-limit-headers.js';
import { createTokenBucket, type TokenBucketOptions } from './token-bucket.js';

export interface ThrottleOptions {
  /** Configured concurrency (api.concurrency): the ceiling of requests in flight. */
  readonly concurrency: number;
  /** An explicit budget (api.maxRequestsPerSecond), on top of what the client learns. */
  readonly maxRequestsPerSecond?: number;
  /** Told about every cut of the pace (for logging). */
  readonly onThrottled?: (ratePerSecond: number) => void;
  /** Milliseconds; tests drive it (with `sleep`). */
  readonly now?: () => number;
  readonly sleep?: TokenBucketOptions['sleep'];
}

/** What a running task reports back about its request, with the rate-limit headers of the answer. */
export interface ThrottleSlot {
  /** The API answered 429. */
  throttled(told?: ToldLimit): void;
  /** The API answered 2xx. */
  succeeded(told?: ToldLimit): void;
}

export interface Throttle {
  /** Runs `task` when a slot is free and the pace allows; retries come back through here. */
  run<T>(task: (slot: ThrottleSlot) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Requests in flight allowed now, between 1 and the configured concurrency. */
  readonly concurrency: number;
  /** The pace (requests/s); undefined when not paced. */
  readonly learnedRate: number | undefined;
  /** The API's limit found, told or remembered (see RateLearner.limit). */
  readonly limitFound: number | undefined;
  /** Starts paced under the limit an earlier run found (before this run is refused). */
  remember(limit: number): void;
  readonly active: number;
  readonly pending: number;
}

/** Unpaced, the pace lets this many through a second: the requests queued in it go at once. */
const UNPACED = 1e6;
/**
 * The pace holds 50 ms of tokens: less than a rate limit's usual burst (the simulator's is
 * 200 ms), so a stalled event loop does not make the client send a burst the API refuses.
 */
const PACE_BURST_SECONDS = 0.05;

/** Requests in flight and their pace, from the rate learner (rate-learner.ts), plus an optional fixed budget. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const clock = { now, sleep: wait };
  const learner = createRateLearner(Math.max(1, options.concurrency), now, options.onThrottled);
  const slots = pLimit(learner.concurrency);
  const pace = createTokenBucket(UNPACED, { ...clock, burstSeconds: PACE_BURST_SECONDS });
  const budget = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond, clock) : undefined;
  // Attempts holding a slot while they wait for the pace: demand the pace does not serve yet.
  let awaitingPace = 0;

  function follow(): void {
    slots.concurrency = learner.concurrency;
    const rate = learner.pace ?? UNPACED;
    if (rate < pace.rate) {
      pace.setRate(rate);
      pace.drain();
    } else if (rate > pace.rate) pace.setRate(rate);
  }

  async function gate(signal: AbortSignal | undefined): Promise<boolean> {
    const before = now();
    awaitingPace += 1;
    try {
      let paused = false;
      for (; learner.pausedUntil > now(); paused = true) await wait(learner.pausedUntil - now(), signal);
      // The pace saved up tokens meanwhile: spent all at once, they would meet a quota just refilled.
      if (paused) pace.drain();
      await pace.take(signal);
      if (budget) await budget.take(signal);
    } finally {
      awaitingPace -= 1;
    }
    // A token at hand is taken in microseconds; waiting for one takes a millisecond or more.
    return now() - before >= 1;
  }

  return {
    run(task, signal) {
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
    get concurrency() {
      return slots.concurrency;
    },
    get learnedRate() {
      return learner.pace;
    },
    get limitFound() {
      return learner.limit;
    },
    remember(limit) {
      learner.remember(limit);
      follow();
    },
    get active() {
      return slots.activeCount;
    },
    get pending() {
      return slots.pendingCount;
    },
  };
}
