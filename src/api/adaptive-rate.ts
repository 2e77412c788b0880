import { RateMeter } from './rate-meter.js';

/**
 * How fast the client sends, learned from the API's answers (README, "Rate limits"). The API does
 * not document its limit, so the client finds it:
 *
 * - **Ramp** (not paced): the concurrency starts small and grows by half a slot per success
 *   while requests are waiting (×1.5 per round trip), up to the ceiling (api.concurrency).
 * - **Paced** (after a 429): the client sends at a rate and no longer limits the concurrency
 *   below the ceiling. A 429 to a request that waited behind the limit or the pace (at most one
 *   a second, and once per wave: answers to requests sent before the last decrease do not count
 *   again) sets the rate just under what the API accepted
 *   over the last two seconds. While requests wait, the rate grows: quickly (×2 a second) back to
 *   just under the rate refused, by 10 % a second up to what was accepted, then by 2 % a second
 *   (it probes past the limit slowly, and finds a raised one); it is released once it is twice
 *   what is accepted and nothing waits.
 * - **429s that do not follow the pace** (an API refusing a share of requests whatever the rate):
 *   two seconds after a decrease, if what the API accepts fell with the pace (under 3/4 of what it
 *   accepted before), the decrease is undone and 429s at that share no longer lower the rate.
 * - The refused request itself waits out its Retry-After (retry-policy.ts) and comes back here.
 */
export interface AdaptiveRate {
  /** The concurrency limit now (an integer from 1 to the ceiling). */
  readonly concurrency: number;
  /** Requests per second to pace at; undefined: not paced. */
  readonly pacing: number | undefined;
  /** The paced rate learned from 429s; undefined when not paced. */
  readonly learned: number | undefined;
  /**
   * Called when an attempt is sent; what it returns goes back to `succeeded`/`throttled`.
   * `waited`: it waited behind the limit or the pace (the client sent as fast as it was let).
   */
  sent(waited: boolean): SentAttempt;
  /** A 2xx. `waiting`: requests were queued behind the limit (more would have been sent). */
  succeeded(attempt: SentAttempt, waiting: boolean): void;
  /** A 429. */
  throttled(attempt: SentAttempt): void;
}

export interface SentAttempt {
  readonly at: number;
  /** The decreases made before it was sent. */
  readonly epoch: number;
  readonly waited: boolean;
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
/**
 * After a 429: just under what the API accepted over the last two seconds, so a right estimate
 * is refused nothing; an estimate under the limit is corrected by the growth below.
 */
const DECREASE = 0.98;
/**
 * Growth per second: ×2 while under `QUICK_UNTIL` × the rate last refused, +10 % up to what the
 * API accepted then, +2 % beyond it. At +10 % a second beyond it the pace crossed the limit
 * within 0.2 s of every decrease: 3–8.5 % of requests refused (B10).
 */
const QUICK_GROWTH = 1.0;
const GROWTH = 0.1;
const PROBE_GROWTH = 0.02;
const QUICK_UNTIL = 0.9;
const MIN_DECREASE_INTERVAL_MS = 1_000;
/** The meter's window: a decrease is judged once what is accepted reflects it. */
const TRIAL_MS = 2_000;
/**
 * A decrease that lowered what the API accepts under this share of what it accepted before did
 * not meet a limit (under a limit, what is accepted stays at the limit): at 30 % random 429s a
 * decrease to 98 % of the accepted rate brings what is accepted to ~69 % of it.
 */
const NOT_THE_PACE = 0.75;
/** 429s over the background share plus this lower the rate again. */
const BACKGROUND_MARGIN = 0.05;
/** Released when the rate is this many times what is accepted and nothing waits. */
const RELEASE_AT = 2;
/** Never slower than one request every two seconds. */
const MIN_RATE = 0.5;

export function createAdaptiveRate(options: AdaptiveRateOptions): AdaptiveRate {
  const now = options.now ?? performance.now.bind(performance);
  const ceiling = Math.max(1, options.ceiling);
  const accepted = new RateMeter(now);
  const refused = new RateMeter(now);
  let limit = Math.min(ceiling, INITIAL_CONCURRENCY);
  let latencyMs: number | undefined;
  let rate: number | undefined;
  let quickUntil = 0;
  /** What the API accepted at the last decrease (requests/s). */
  let acceptedAtDecrease = 0;
  let grownAt = 0;
  let decreasedAt = Number.NEGATIVE_INFINITY;
  /** The first decrease not judged yet: when, and what was accepted then. */
  let trial: { readonly at: number; readonly acceptedBefore: number } | undefined;
  /** Share of 429s found not to follow the pace. */
  let background = 0;
  // Bumped on every decrease; an attempt sent before it says nothing new when it is refused.
  let epoch = 0;

  /** The rate sent at now: the paced one, or during the ramp what the window allows per round trip. */
  function sendingRate(): number | undefined {
    if (rate !== undefined) return rate;
    return latencyMs === undefined ? undefined : (Math.floor(limit) * 1000) / Math.max(1, latencyMs);
  }

  function refusedShare(): number {
    const no = refused.perSecond() ?? 0;
    const yes = accepted.perSecond() ?? 0;
    return no + yes === 0 ? 0 : no / (no + yes);
  }

  /**
   * Undoes a decrease two seconds old that lowered what the API accepts with the pace: the 429s
   * that started the pacing did not follow it either, so the client is no longer paced.
   */
  function judgeTrial(at: number): void {
    if (trial === undefined || at - trial.at < TRIAL_MS) return;
    const after = accepted.perSecond() ?? 0;
    if (after < NOT_THE_PACE * trial.acceptedBefore) {
      rate = undefined;
      background = Math.max(background, refusedShare());
      epoch += 1;
    }
    trial = undefined;
  }

  return {
    get concurrency() {
      return rate === undefined ? Math.floor(limit) : ceiling;
    },
    get pacing() {
      return rate;
    },
    get learned() {
      return rate;
    },
    sent(waited) {
      return { at: now(), epoch, waited };
    },
    succeeded(attempt, waiting) {
      accepted.add();
      const at = now();
      judgeTrial(at);
      const sample = at - attempt.at;
      latencyMs = latencyMs === undefined ? sample : latencyMs + LATENCY_WEIGHT * (sample - latencyMs);
      // Up to a second per answer: a chain of one request at a time paced at 0.5/s grows too.
      const seconds = Math.min(1, Math.max(0, at - grownAt) / 1000);
      waiting ||= attempt.waited;
      grownAt = Math.max(grownAt, at);
      if (rate === undefined) {
        if (waiting) limit = Math.min(ceiling, limit + RAMP_STEP);
        return;
      }
      if (!waiting) {
        // Demand is under the pace: released once far under it (a rate limit is met again by a 429).
        if (trial === undefined && rate >= RELEASE_AT * (accepted.perSecond() ?? rate)) rate = undefined;
        return;
      }
      if (rate < quickUntil) rate = Math.min(quickUntil, rate * (1 + QUICK_GROWTH * seconds));
      else if (rate < acceptedAtDecrease) rate = Math.min(acceptedAtDecrease, rate * (1 + GROWTH * seconds));
      else rate *= 1 + PROBE_GROWTH * seconds;
    },
    throttled(attempt) {
      refused.add();
      const at = now();
      judgeTrial(at);
      if (attempt.epoch !== epoch) return;
      // Sent without waiting: the client sent at the pace of its own work, which a limit under
      // it refuses request by request (each waits its Retry-After). At the tail of a run one
      // chain of requests measured ~0 accepted over two seconds and paced the rest at 0.5/s.
      if (!attempt.waited) return;
      if (at - decreasedAt < MIN_DECREASE_INTERVAL_MS) return;
      // Refusals at the share found not to follow the pace say nothing about the pace.
      if (background > 0 && refusedShare() <= background + BACKGROUND_MARGIN) return;
      // Refused before any success: the refusal's round trip is the only latency known.
      latencyMs ??= Math.max(1, at - attempt.at);
      const current = sendingRate() ?? Math.floor(limit);
      const measured = accepted.perSecond();
      const lowered = Math.max(MIN_RATE, DECREASE * (measured ?? current / 2));
      // Judged against a whole window: at the start of a run the burst a rate limit lets through
      // at once fills a short one (40 requests in 0.1 s at R 200 read as 3 R).
      if (measured !== undefined && accepted.spansWindow()) trial ??= { at, acceptedBefore: measured };
      // The ramp's sending rate may be far over the limit (×1.5 a round trip): the quick regrowth
      // stops under it; a paced rate refused is over the limit by little.
      quickUntil = QUICK_UNTIL * (rate === undefined ? current : Math.min(current, measured ?? current));
      rate = Math.min(current, lowered);
      acceptedAtDecrease = measured ?? rate;
      decreasedAt = at;
      grownAt = at;
      epoch += 1;
      options.onThrottled?.(rate);
    },
  };
}
