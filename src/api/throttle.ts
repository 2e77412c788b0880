import pLimit, { type LimitFunction } from 'p-limit';
import { RateLearner } from './rate-learner.js';
import { createTokenBucket, type TokenBucket, type TokenBucketOptions } from './token-bucket.js';

/** api.concurrency, api.maxRequestsPerSecond; `onThrottled` is told every cut of the pace (for logging); tests drive `now` and `sleep`. */
export interface ThrottleOptions extends Pick<TokenBucketOptions, 'now' | 'sleep'> {
  readonly concurrency: number;
  readonly maxRequestsPerSecond?: number | undefined;
  readonly onThrottled?: (ratePerSecond: number) => void;
}

/** What a task reports about its request (429 or 2xx), with the rate its headers told (readRateLimitHeaders). */
export interface ThrottleSlot {
  throttled(told?: number): void;
  succeeded(told?: number): void;
}

/** Unpaced, the pace lets this many through a second: the requests queued in it go at once. */
const UNPACED = 1e6;
/** The pace holds 50 ms of tokens, under the simulator's 200 ms burst: a stalled event loop sends no burst the API refuses. */
const PACE_BURST_SECONDS = 0.05;

/** Requests in flight and their pace, from the rate learner (rate-learner.ts), plus an optional fixed budget. */
export class Throttle {
  readonly #now: () => number;
  readonly #learner: RateLearner;
  readonly #slots: LimitFunction;
  readonly #pace: TokenBucket;
  readonly #budget: TokenBucket | undefined;
  /** Attempts holding a slot while they wait for the pace: demand it does not serve yet. */
  #awaitingPace = 0;

  constructor(options: ThrottleOptions) {
    this.#now = options.now ?? performance.now.bind(performance);
    const clock = { now: this.#now, sleep: options.sleep };
    this.#learner = new RateLearner(Math.max(1, options.concurrency), this.#now, options.onThrottled);
    this.#slots = pLimit(this.#learner.concurrency);
    this.#pace = createTokenBucket(UNPACED, { ...clock, burstSeconds: PACE_BURST_SECONDS });
    this.#budget = options.maxRequestsPerSecond ? createTokenBucket(options.maxRequestsPerSecond, clock) : undefined;
  }

  /** Runs `task` when a slot is free and the pace allows; retries come back through here. */
  run<T>(task: (slot: ThrottleSlot) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const queued = this.#slots.activeCount >= this.#slots.concurrency || this.#slots.pendingCount > 0;
    return this.#slots(async () => {
      signal?.throwIfAborted();
      const attempt = this.#learner.sent((await this.#gate(signal)) || queued);
      return task({
        throttled: (told) => {
          this.#learner.refused(attempt, told);
          this.#follow();
        },
        succeeded: (told) => {
          this.#learner.accepted(attempt, this.#slots.pendingCount > 0 || this.#awaitingPace > 0, told);
          this.#follow();
        },
      });
    });
  }

  /** Starts paced under the limit an earlier run found (unless this run has met a 429). */
  remember(limit: number): void {
    this.#learner.remember(limit);
    this.#follow();
  }

  /** Requests in flight allowed now, between 1 and the configured concurrency. */
  get concurrency(): number {
    return this.#slots.concurrency;
  }

  /** The pace (requests/s); undefined when not paced. */
  get learnedRate(): number | undefined {
    return this.#learner.pace;
  }

  /** The API's limit found, told or remembered. */
  get limitFound(): number | undefined {
    return this.#learner.limit;
  }

  get active(): number {
    return this.#slots.activeCount;
  }

  #follow(): void {
    this.#slots.concurrency = this.#learner.concurrency;
    const rate = this.#learner.pace ?? UNPACED;
    // Lowered: the tokens saved up at the old pace are not spent.
    if (rate !== this.#pace.rate) this.#pace.setRate(rate, rate < this.#pace.rate);
  }

  /** Waits for the pace; true when it had to wait. */
  async #gate(signal: AbortSignal | undefined): Promise<boolean> {
    const before = this.#now();
    this.#awaitingPace += 1;
    try {
      await this.#pace.take(signal);
      if (this.#budget) await this.#budget.take(signal);
    } finally {
      this.#awaitingPace -= 1;
    }
    // A token at hand is taken in microseconds; waiting for one takes a millisecond or more.
    return this.#now() - before >= 1;
  }
}
