import { RateMeter } from './rate-meter.js';

/**
 * How fast the client sends, learned from the API's answers (README, "Rate limits"). The API does
 * not document its limit, so the client finds it:
 *
 * - **Ramp** (no 429 yet): the concurrency starts small and grows by half a slot per success
 *   while requests are waiting (×1.5 per round trip), up to the ceiling (api.concurrency).
 *   Requests are paced at concurrency ÷ latency, so a window's worth is spread over a round trip
 *   instead of leaving in one burst a rate limit with a small burst would refuse.
 * - **Paced** (after a 429): the client sends at a learned rate and no longer limits the
 *   concurrency below the ceiling. A 429 lowers the rate (once per wave: answers to requests
 *   sent before the last decrease do not count again) to just under what the API accepted over
 *   the last second; while requests are waiting, the rate grows quickly back to just under the
 *   rate that was refused, then slowly beyond it, so a raised limit is found again.
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
  /** Nothing is sent until `untilMs` (a Retry-After): the time paused does not count as time the API accepted nothing. */
  paused(untilMs: number): void;
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
/** Per success while requests wait: ×1.5 per round trip, so a ramp overshoots a limit by at most half. */
const RAMP_STEP = 0.25;
/** Weight of a new latency sample in the moving average. */
const LATENCY_WEIGHT = 0.1;
/** The first 429 came from a ramp at most 1.5× over the limit (RAMP_STEP): half its rate is under it. */
const FIRST_DECREASE = 0.5;
/** Later 429s: just under what was accepted over the last seconds of sending. */
const DECREASE = 0.97;
/** Rate growth per second while under `FAST_UNTIL` × the rate last refused, and beyond it. */
const FAST_GROWTH = 1.0;
const SLOW_GROWTH = 0.005;
const FAST_UNTIL = 0.95;
/** Never slower than one request every two seconds. */
const MIN_RATE = 0.5;

export function createAdaptiveRate(options: AdaptiveRateOptions): AdaptiveRate {
  const now = options.now ?? performance.now.bind(performance);
  const ceiling = Math.max(1, options.ceiling);
  // Pauses (Retry-After) folded into a total once over, so the clock of the meter stands still
  // in them: "accepted over the last seconds" means seconds the client was sending.
  let pausedTotal = 0;
  let pause: { start: number; end: number } | undefined;
  function pausedBy(at: number): number {
    if (pause && at >= pause.end) {
      pausedTotal += pause.end - pause.start;
      pause = undefined;
    }
    return pausedTotal + (pause ? Math.max(0, at - pause.start) : 0);
  }
  const accepted = new RateMeter(() => {
    const at = now();
    return at - pausedBy(at);
  });
  let limit = Math.min(ceiling, INITIAL_CONCURRENCY);
  let latencyMs: number | undefined;
  let rate: number | undefined;
  let refusedAt = 0;
  let grownAt = 0;
  // Bumped on every decrease; an attempt sent before it says nothing new when it is refused.
  let epoch = 0;

  function pacing(): number | undefined {
    if (rate !== undefined) return rate;
    return latencyMs === undefined ? undefined : (Math.floor(limit) * 1000) / Math.max(1, latencyMs);
  }

  return {
    get concurrency() {
      return rate === undefined ? Math.floor(limit) : ceiling;
    },
    get pacing() {
      return pacing();
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
      rate *= 1 + (rate < FAST_UNTIL * refusedAt ? FAST_GROWTH : SLOW_GROWTH) * seconds;
    },
    throttled(attempt) {
      if (attempt.epoch !== epoch) return;
      epoch += 1;
      // Refused before any success: the refusal's round trip is the only latency known.
      latencyMs ??= Math.max(1, now() - attempt.at);
      const current = pacing() ?? Math.floor(limit);
      if (rate === undefined) {
        refusedAt = current;
        rate = Math.max(MIN_RATE, current * FIRST_DECREASE);
      } else {
        refusedAt = Math.min(current, accepted.perSecond() ?? current);
        rate = Math.max(MIN_RATE, DECREASE * refusedAt);
      }
      grownAt = now();
      options.onThrottled?.(rate);
    },
    paused(untilMs) {
      const at = now();
      pausedBy(at);
      if (untilMs <= at) return;
      if (pause) pause.end = Math.max(pause.end, untilMs);
      else pause = { start: at, end: untilMs };
      grownAt = Math.max(grownAt, untilMs);
    },
  };
}
