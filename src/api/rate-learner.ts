import { RateMeter } from './rate-meter.js';
import type { ToldLimit } from './rate-limit-headers.js';

/**
 * How fast the client sends: a small state machine (docs/rate-limits.md, "How the client paces").
 *
 *   ramp ──429──▶ paced ──429s a slower pace did not stop──▶ ramp (429s at that share tolerated)
 *   paced ──nothing waits, pace far over what is accepted──▶ ramp
 *   any ──RateLimit / X-RateLimit-* headers──▶ told
 *
 * - ramp: not paced; one more request in flight per answer while more wait, up to the ceiling.
 * - paced: additive increase, multiplicative decrease. A 429 sets the pace to `cut` of the rate
 *   refused; refused again before any request sent after the cut was accepted, to `halve` of it,
 *   then it climbs back quickly. Between 429s it grows slowly, faster the longer none comes.
 * - told: the API says its limit in headers; the pace keeps under it, nothing is learned.
 *
 * Once per wave: a 429 to a request sent before the last cut says nothing new, nor does one to a
 * request that did not wait (the client sent less than it could). The refused request waits its
 * Retry-After (retry-policy.ts) and comes back through the pace.
 */
export const RATE_RULES = {
  /** Requests in flight when a run starts. */
  initialConcurrency: 2,
  /** The ramp's 429 reads what the API accepted over the refused round trip, this long at least (the shortest burst assumed). */
  rampWindowMs: 200,
  cut: 0.9,
  halve: 0.5,
  /** Growth per second after the ramp's 429 and after a halving, until the next 429. */
  climb: 1,
  /** Growth per second after a cut; it doubles every `growthDoublingMs` without a 429 (a raised limit is found). */
  growth: 0.01,
  growthDoublingMs: 10_000,
  /** The pace stays under this many times what the API accepted lately (a busy client grew it without end). */
  headroom: 2,
  minRate: 0.5,
  /** Rates and shares are read over this window. */
  windowMs: 2_000,
  /** A cut is judged a window on, over this many answers at least: this share still refused, the pace under `releaseUnder` of the best accepted, the 429s do not follow the pace. */
  trialAnswers: 10,
  stillRefused: 0.15,
  releaseUnder: 0.4,
  /** After such a release, 429s up to the share refused then plus this cut nothing. */
  toleranceMargin: 0.05,
  /** Share of a rate told by headers that the pace keeps to. */
  toldShare: 0.98,
} as const;

interface Ramp {
  readonly kind: 'ramp';
  concurrency: number;
  /** The share of 429s found not to follow the pace (0: none found). */
  readonly tolerated: number;
}

interface Paced {
  readonly kind: 'paced';
  rate: number;
  readonly climbing: boolean;
  /** When the pace was cut (or set), and whether a request sent since was accepted. */
  readonly cutAt: number;
  acceptedSinceCut: boolean;
}

interface Told {
  readonly kind: 'told';
  readonly rate: number;
}

export type RateState = Ramp | Paced | Told;

export interface Attempt {
  readonly at: number;
  /** The cuts made before it was sent. */
  readonly epoch: number;
  /** It waited behind the pace or the slots in flight: the client sent as fast as it was let. */
  readonly waited: boolean;
}

export interface RateLearner {
  readonly state: Readonly<RateState>;
  readonly concurrency: number;
  /** Requests per second to send at; undefined: not paced. */
  readonly pace: number | undefined;
  /** The API's limit: the rate it last refused, the one it told, or the one remembered. */
  readonly limit: number | undefined;
  /** No request is sent before this time: the headers of a 429 said the quota is spent until then. */
  readonly pausedUntil: number;
  /** Starts paced under a limit an earlier run found, unless this run has met a 429. */
  remember(limit: number): void;
  sent(waited: boolean): Attempt;
  /** A 2xx; `waiting`: more requests were waiting to be sent. */
  accepted(attempt: Attempt, waiting: boolean, told?: ToldLimit): void;
  refused(attempt: Attempt, told?: ToldLimit): void;
}

export function createRateLearner(ceiling: number, now: () => number, onCut?: (rate: number) => void): RateLearner {
  const R = RATE_RULES;
  const accepted = new RateMeter(now);
  const refused = new RateMeter(now);
  let state: RateState = { kind: 'ramp', concurrency: Math.min(ceiling, R.initialConcurrency), tolerated: 0 };
  let epoch = 0;
  let limit: number | undefined;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let startedAt: number | undefined;
  let grownAt = 0;
  let best = 0;
  let everRefused = false;
  let firstAnswerAt: number | undefined;
  /** The answers to requests sent from `at` on, judged a window on (see judge). */
  let trial: { readonly at: number; answers: number; refused: number } | undefined;

  /** Accepted per second over the last `ms` (one request at least), or since the run started when that is shorter. */
  function acceptedRate(ms: number): number {
    const span = Math.max(50, Math.min(ms, now() - (startedAt ?? 0)));
    return (Math.max(1, accepted.countOver(ms)) * 1000) / span;
  }

  function pace(rate: number, climbing: boolean): void {
    state = { kind: 'paced', rate: Math.max(R.minRate, rate), climbing, cutAt: now(), acceptedSinceCut: false };
    if (climbing) trial ??= { at: now() + R.windowMs / 2, answers: 0, refused: 0 };
    epoch += 1;
    onCut?.(state.rate);
  }

  /** Headers that tell the limit replace whatever was learned. */
  function listen(told: ToldLimit | undefined): boolean {
    if (told?.perSecond !== undefined) {
      limit = told.perSecond;
      state = { kind: 'told', rate: R.toldShare * told.perSecond };
    }
    return state.kind === 'told';
  }

  /** While requests wait: quick while climbing, then slow, faster the longer no 429 came; never far over what is accepted. */
  function grow(paced: Paced, seconds: number): void {
    const growth = paced.climbing ? R.climb : Math.min(R.climb, R.growth * 2 ** ((now() - paced.cutAt) / R.growthDoublingMs));
    paced.rate = Math.max(paced.rate, Math.min(paced.rate * (1 + growth * seconds), R.headroom * acceptedRate(R.windowMs)));
  }

  /**
   * A window after the ramp's 429 (or a halving), 429s still at a share of the answers to the
   * requests sent since, with the pace under `releaseUnder` of the best the API accepted, do not
   * follow the pace (a limit refuses nothing well under it): back to the ramp, and 429s at that
   * share cut nothing from then on.
   */
  function judge(attempt: Attempt, wasRefused: boolean): void {
    if (trial === undefined || state.kind !== 'paced' || attempt.at < trial.at) return;
    trial.answers += 1;
    if (wasRefused) trial.refused += 1;
    if (now() - trial.at < R.windowMs || trial.answers < R.trialAnswers) return;
    const share = trial.refused / trial.answers;
    trial = undefined;
    if (share < R.stillRefused || state.rate >= R.releaseUnder * best) return;
    limit = undefined;
    state = { kind: 'ramp', concurrency: ceiling, tolerated: share };
    epoch += 1;
  }

  /** The ramp's 429: what the API accepted over the refused round trip; early in the run, with its burst spent too. */
  function rampReading(attempt: Attempt): number {
    const window = Math.max(R.rampWindowMs, now() - attempt.at);
    const age = now() - (startedAt ?? 0);
    return (Math.max(1, accepted.countOver(window)) * 1000) / (age < window ? age + R.rampWindowMs : window);
  }

  /** A 429 to a request that waited, sent since the last cut. */
  function cut(attempt: Attempt): void {
    if (state.kind === 'ramp') {
      const no = refused.countOver(R.windowMs);
      if (state.tolerated > 0 && no / (no + accepted.countOver(R.windowMs)) <= state.tolerated + R.toleranceMargin) return;
      pace(R.cut * rampReading(attempt), true);
    } else if (state.kind === 'paced') {
      limit = state.rate;
      if (state.acceptedSinceCut) pace(R.cut * state.rate, false);
      else pace(R.halve * state.rate, true);
    }
  }

  return {
    get state() {
      return state;
    },
    get concurrency() {
      return state.kind === 'ramp' ? state.concurrency : ceiling;
    },
    get pace() {
      return state.kind === 'ramp' ? undefined : state.rate;
    },
    get limit() {
      return limit;
    },
    get pausedUntil() {
      return pausedUntil;
    },
    remember(remembered) {
      if (everRefused || !Number.isFinite(remembered) || remembered < R.minRate) return;
      limit = remembered;
      pace(R.cut * remembered, false);
      if (state.kind === 'paced') state.acceptedSinceCut = true;
    },
    sent(waited) {
      startedAt ??= now();
      return { at: now(), epoch, waited };
    },
    accepted(attempt, waiting, told) {
      accepted.add();
      if (listen(told)) return;
      const seconds = Math.min(1, (now() - grownAt) / 1000);
      grownAt = now();
      if (now() - (startedAt ?? 0) >= R.windowMs) best = Math.max(best, acceptedRate(R.windowMs));
      firstAnswerAt ??= now();
      if (state.kind === 'ramp') {
        // The first round trip tells the latency before more go.
        if ((waiting || attempt.waited) && attempt.at >= firstAnswerAt) state.concurrency = Math.min(ceiling, state.concurrency + 1);
        return;
      }
      if (state.kind !== 'paced') return;
      if (attempt.epoch === epoch) state.acceptedSinceCut = true;
      judge(attempt, false);
      if (waiting || attempt.waited) grow(state, seconds);
      // Demand fell far under the pace: released (the limit found is kept for the next run).
      else if (state.rate > R.headroom * acceptedRate(R.windowMs)) state = { kind: 'ramp', concurrency: ceiling, tolerated: 0 };
    },
    refused(attempt, told) {
      refused.add();
      everRefused = true;
      // The quota is spent: nothing is sent before it is whole again (not on every answer with none
      // left: a limit told in whole seconds would pause a second each time).
      if (told?.remaining === 0 && told.resetMs !== undefined) pausedUntil = Math.max(pausedUntil, now() + told.resetMs);
      if (listen(told)) return;
      judge(attempt, true);
      if (attempt.waited && attempt.epoch === epoch) cut(attempt);
    },
  };
}
