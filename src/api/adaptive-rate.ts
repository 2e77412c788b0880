import { RateMeter } from './rate-meter.js';

/**
 * How fast the client sends, learned from the API's answers (README, "Rate limits"). The API does
 * not document its limit, so the client finds it:
 *
 * - **Ramp** (no 429 yet): the concurrency starts small and grows by half a slot per success
 *   while requests are waiting (×1.5 per round trip), up to the ceiling (api.concurrency).
 *   The ramp is not paced (the window alone limits it).
 * - **Paced** (after a 429): the client sends at a learned rate and no longer limits the
 *   concurrency below the ceiling. A 429 lowers the rate (once per wave: answers to requests
 *   sent before the last decrease do not count again) to just under what the API accepted over
 *   the last two seconds of sending; while requests are waiting, the rate grows quickly back to
 *   just under the rate that was refused, then by 3 % a minute, so a raised limit is found again.
 * - The refused request itself waits out its Retry-After (retry-policy.ts) and comes back here.
 */
export interface AdaptiveRate {
  /** The concurrency limit now (an integer from 1 to the ceiling). */
  readonly concurrency: number;
  /** Requests per second to pace at; undefined: not paced. */
  readonly pacing: number | undefined;
  /** The rate learned from 429s; undefined until the first. */
  readonly learned: number | undefined;
  /** Called when an attempt is sent; what it returns goes back to `succeeded`/`throttled`. */
  sent(): SentAttempt;
  /** A 2xx. `waiting`: requests were queued behind the limit (more would have been sent). */
  succeeded(attempt: SentAttempt, waiting: boolean): void;
  /** A 429. */
  throttled(attempt: SentAttempt): void;
}

export interface SentAttempt {
  readonly at: number;
  /** The decreases made before it was sent. */
  readonly epoch: number;
}

export interface AdaptiveRateOptions {
  readonly ceiling: number;
  /** Milliseconds (performance.now by default); tests drive it. */
  readonly now?: () => number;
  /** Told about every decrease (for logging). */
  readonly onThrottled?: (rate: number) => void;
}

/** Two in flight at first: one round trip tells the latency before more are sent together. */
const INITIAL_CONCURRENCY = 2;
/** Per success while requests wait: ×1.5 per round trip (2 to 40 in flight in 8 round trips). */
const RAMP_STEP = 0.5;
/** Weight of a new latency sample in the moving average. */
const LATENCY_WEIGHT = 0.1;
/** After a 429: just under what the API accepted over the last seconds of sending. */
const DECREASE = 0.95;
/**
 * Growth per second while under `FAST_UNTIL` × the rate last refused, and beyond it. Each probe
 * past the limit costs 429s and their retries: 3 % a minute probes seldom (at 0.5 %/s a limit of
 * 50/s with 20 ms latency was crossed every ~10 s).
 */
const FAST_GROWTH = 1.0;
const SLOW_GROWTH = 0.0005;
const FAST_UNTIL = 0.99;
const MIN_DECREASE_INTERVAL_MS = 1_000;
/**
 * Never under half the best rate the API accepted lately (its half-life a minute): 429s that
 * do not depend on the pace would otherwise still halve it every few seconds.
 */
const PEAK_FLOOR = 0.5;
const PEAK_HALF_LIFE_MS = 60_000;
/** Never slower than one request every two seconds. */
const MIN_RATE = 0.5;

export function createAdaptiveRate(options: AdaptiveRateOptions): AdaptiveRate {
  const now = options.now ?? performance.now.bind(performance);
  const ceiling = Math.max(1, options.ceiling);
  const accepted = new RateMeter(now);
  let limit = Math.min(ceiling, INITIAL_CONCURRENCY);
  let latencyMs: number | undefined;
  let rate: number | undefined;
  let refusedAt = 0;
  let grownAt = 0;
  let decreasedAt = Number.NEGATIVE_INFINITY;
  let peak = 0;
  let peakAt = 0;
  // Bumped on every decrease; an attempt sent before it says nothing new when it is refused.
  let epoch = 0;

  /** The rate sent at now: the learned one, or during the ramp what the window allows per round trip. */
  function sendingRate(): number | undefined {
    if (rate !== undefined) return rate;
    return latencyMs === undefined ? undefined : (Math.floor(limit) * 1000) / Math.max(1, latencyMs);
  }

  return {
    get concurrency() {
      return rate === undefined ? Math.floor(limit) : ceiling;
    },
    get pacing() {
      // The ramp is not paced: a slow answer (a 2.5 s slow-drip body) in the latency average
      // paced a fault-injection run at a few requests a second.
      return rate;
    },
    get learned() {
      return rate;
    },
    sent() {
      return { at: now(), epoch };
    },
    succeeded(attempt, waiting) {
      accepted.add();
      const at = now();
      const sample = at - attempt.at;
      latencyMs = latencyMs === undefined ? sample : latencyMs + LATENCY_WEIGHT * (sample - latencyMs);
      if (!waiting) {
        grownAt = at;
        return;
      }
      if (rate === undefined) {
        limit = Math.min(ceiling, limit + RAMP_STEP);
        return;
      }
      const seconds = Math.min(0.1, Math.max(0, at - grownAt) / 1000);
      grownAt = Math.max(grownAt, at);
      const quickUntil = FAST_UNTIL * refusedAt;
      rate = rate < quickUntil ? Math.min(quickUntil, rate * (1 + FAST_GROWTH * seconds)) : rate * (1 + SLOW_GROWTH * seconds);
    },
    throttled(attempt) {
      if (attempt.epoch !== epoch) return;
      // Once a second at most: an API that refuses a share of requests at any pace (30 % random
      // 429s) would otherwise cut the rate to that share every round trip, to nothing in seconds.
      if (now() - decreasedAt < MIN_DECREASE_INTERVAL_MS) return;
      decreasedAt = now();
      epoch += 1;
      // Refused before any success: the refusal's round trip is the only latency known.
      latencyMs ??= Math.max(1, now() - attempt.at);
      const current = sendingRate() ?? Math.floor(limit);
      const measured = accepted.perSecond();
      if (measured !== undefined) {
        const at = now();
        peak = Math.max(measured, peak * 0.5 ** ((at - peakAt) / PEAK_HALF_LIFE_MS));
        peakAt = at;
      }
      const floor = Math.max(MIN_RATE, PEAK_FLOOR * peak);
      // Refused at `current`: the limit is below it. What was accepted over the last seconds of
      // sending says by how much (it over-counts by the burst the API let through, so it is
      // only an upper bound too; the lower of both, and each new refusal lowers it again).
      const acceptedRate = measured;
      if (rate === undefined) {
        // A ramp's meter also holds its slow start: it may be far under the limit, so it sets
        // the pace but not the ceiling of the quick regrowth.
        refusedAt = current;
        rate = Math.max(floor, Math.min(DECREASE * current, DECREASE * (acceptedRate ?? current / 2)));
      } else {
        refusedAt = Math.min(current, acceptedRate ?? current);
        rate = Math.max(floor, DECREASE * refusedAt);
      }
      grownAt = now();
      options.onThrottled?.(rate);
    },
  };
}
