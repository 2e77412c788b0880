import { RateMeter } from './rate-meter.js';
import type { ToldLimit } from './rate-limit-headers.js';

/**
 * How fast the client sends: a small state machine (docs/rate-limits.md).
 *
 *   ramp ──429──▶ paced ──429s that a slower pace did not stop──▶ ramp (429s at that share tolerated)
 *   any state ──RateLimit / X-RateLimit headers──▶ told
 *
 * - ramp: not paced; the requests in flight double per round trip while more wait, up to the ceiling.
 * - paced: requests go at `rate`: it grows while more wait and is cut on a 429 (additive increase,
 *   multiplicative decrease), once per wave: a 429 to a request sent before the last cut says
 *   nothing new. Refused again before any request sent after the cut was accepted, the pace is far
 *   over the limit: it is halved and climbs back quickly.
 * - told: the API says its limit in headers; the pace is that, nothing is learned.
 *
 * A 429 to a request that did not wait (the client sent less than it could) cuts nothing. The
 * refused request itself waits its Retry-After (retry-policy.ts) and comes back through the pace.
 * Each constant's figure: docs/rate-limits.md, "The rules and their constants".
 */
export const RATE_RULES = {
  /** Requests in flight when a run starts: one round trip tells the latency before more go. */
  initialConcurrency: 2,
  /** The ramp's 429 reads what the API accepted over the refused request's round trip, this long at least. */
  rampWindowMs: 200,
  /** A 429 sets the pace to this share of the rate refused. */
  cut: 0.9,
  /** The share when refused again before any request sent after the last cut was accepted. */
  halve: 0.5,
  /** Growth per second after the ramp's 429 and after a halving, until the next 429. */
  climb: 1,
  /** Growth per second after a cut; it doubles every `growthDoublingMs` without one, up to `climb`. */
  growth: 0.01,
  growthDoublingMs: 10_000,
  /** The pace grows to at most this many times what the API accepted over the window. */
  headroom: 2,
  /** The slowest pace: one request every two seconds. */
  minRate: 0.5,
  /** Rates and shares are read over this window. */
  windowMs: 2_000,
  /**
   * A trial starts at a cut: the answers to requests sent from half a window on, judged a window
   * on. This many at least, this share of them refused, while the pace is under `releaseUnder` of
   * the best rate the API accepted: 429s that do not follow the pace.
   */
  trialAnswers: 10,
  stillRefused: 0.15,
  releaseUnder: 0.5,
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
  /** When the pace was last cut (or set), and whether a request sent since was accepted. */
  readonly cutAt: number;
  acceptedSinceCut: boolean;
  /** When pacing began, and the most the API accepted over a window since. */
  readonly pacedAt: number;
  best: number;
  trial: { readonly at: number; answers: number; refused: number } | undefined;
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
  /** Requests in flight allowed. */
  readonly concurrency: number;
  /** Requests per second to send at; undefined: not paced. */
  readonly pace: number | undefined;
  /** The API's limit: the rate it last refused, the one it told, or the one remembered. */
  readonly limit: number | undefined;
  /** No request is sent before this time: a 429 said the quota is spent until then. */
  readonly pausedUntil: number;
  /** Starts paced under a limit an earlier run found, unless this run has met a 429 already. */
  remember(limit: number): void;
  sent(waited: boolean): Attempt;
  /** A 2xx; `waiting`: more requests were waiting to be sent. */
  accepted(attempt: Attempt, waiting: boolean, told?: ToldLimit): void;
  /** A 429. */
  refused(attempt: Attempt, told?: ToldLimit): void;
}

export function createRateLearner(ceiling: number, now: () => number, onCut?: (rate: number) => void): RateLearner {
  const R = { ...RATE_RULES, ...((globalThis as { rateRules?: object }).rateRules ?? {}) } as typeof RATE_RULES;
  const accepted = new RateMeter(now);
  const refused = new RateMeter(now);
  let state: RateState = { kind: 'ramp', concurrency: Math.min(ceiling, R.initialConcurrency), tolerated: 0 };
  let epoch = 0;
  let limit: number | undefined;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let firstSentAt: number | undefined;
  let grownAt = 0;

  /** Accepted per second over the last `ms` (one request at least), or since the first request when that is shorter. */
  function acceptedRate(ms: number): number {
    const span = Math.max(50, Math.min(ms, now() - (firstSentAt ?? 0)));
    return (Math.max(1, accepted.countOver(ms)) * 1000) / span;
  }

  function paced(rate: number, climbing: boolean, from?: Paced): Paced {
    const at = now();
    const trial = from?.trial ?? (from === undefined && !climbing ? undefined : { at, answers: 0, refused: 0 });
    return { kind: 'paced', rate: Math.max(R.minRate, rate), climbing, cutAt: at, acceptedSinceCut: false, pacedAt: from?.pacedAt ?? at, best: from?.best ?? 0, trial };
  }

  function cut(next: RateState): void {
    state = next;
    epoch += 1;
    if (next.kind === 'paced') onCut?.(next.rate);
  }

  /** Headers that tell the limit replace whatever was learned. */
  function listen(told: ToldLimit | undefined): boolean {
    if (told?.perSecond !== undefined) {
      limit = told.perSecond;
      state = { kind: 'told', rate: R.toldShare * told.perSecond };
    }
    return state.kind === 'told';
  }

  /** Growth while requests wait: quick while climbing, then slow, faster the longer no 429 came. */
  function grow(pace: Paced, at: number, seconds: number): void {
    const sinceCut = at - pace.cutAt;
    const growth = pace.climbing ? R.climb : Math.min(R.climb, R.growth * 2 ** (sinceCut / R.growthDoublingMs));
    // Never far over what the API accepted: a client too busy to send at its pace grew it without end.
    pace.rate = Math.max(pace.rate, Math.min(pace.rate * (1 + growth * seconds), R.headroom * acceptedRate(R.windowMs)));
    if (at - pace.pacedAt >= R.windowMs) pace.best = Math.max(pace.best, acceptedRate(R.windowMs));
  }

  /**
   * Counts an answer for the trial of the last cuts. A window on, 429s still at a share of the
   * requests sent since, and the pace under half the best the API accepted, say that they do not
   * follow the pace (a limit refuses nothing under it): the pace is dropped, and 429s at that
   * share cut nothing from then on.
   */
  function judge(attempt: Attempt, wasRefused: boolean): void {
    if (state.kind !== 'paced' || state.trial === undefined) return;
    const trial = state.trial;
    if (attempt.at >= trial.at + R.windowMs / 2) {
      trial.answers += 1;
      if (wasRefused) trial.refused += 1;
    }
    if (now() - trial.at < R.windowMs || trial.answers < R.trialAnswers) return;
    const share = trial.refused / trial.answers;
    if (share < R.stillRefused || state.rate >= R.releaseUnder * state.best) state.trial = undefined;
    else {
      limit = undefined;
      cut({ kind: 'ramp', concurrency: ceiling, tolerated: share });
    }
  }

  /** A 429 to a request that waited, sent since the last cut. */
  function refusedInWave(attempt: Attempt): void {
    if (state.kind === 'ramp') {
      const no = refused.countOver(R.windowMs);
      if (state.tolerated > 0 && no / (no + accepted.countOver(R.windowMs)) <= state.tolerated + R.toleranceMargin) return;
      // What the API accepted lately, its burst included: this first reading may be far off.
      const window = Math.max(R.rampWindowMs, now() - attempt.at);
      cut(paced(R.cut * acceptedRate(window), true));
    } else if (state.kind === 'paced') {
      limit = state.rate;
      cut(state.acceptedSinceCut ? paced(R.cut * state.rate, false, state) : paced(R.halve * state.rate, true, state));
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
      if (epoch > 0 || state.kind !== 'ramp' || !Number.isFinite(remembered) || remembered < R.minRate) return;
      limit = remembered;
      state = { ...paced(R.cut * remembered, false), acceptedSinceCut: true };
    },
    sent(waited) {
      const at = now();
      firstSentAt ??= at;
      return { at, epoch, waited };
    },
    accepted(attempt, waiting, told) {
      accepted.add();
      if (listen(told)) return;
      const at = now();
      const seconds = Math.min(1, (at - grownAt) / 1000);
      grownAt = at;
      if (state.kind === 'paced' && attempt.epoch === epoch) state.acceptedSinceCut = true;
      judge(attempt, false);
      if (!waiting && !attempt.waited) return;
      if (state.kind === 'ramp') state.concurrency = Math.min(ceiling, state.concurrency + 1);
      else if (state.kind === 'paced') grow(state, at, seconds);
    },
    refused(attempt, told) {
      refused.add();
      // Refused with the quota spent: nothing is sent before it is whole again. (Not on every answer
      // that says none is left: a limit told in whole seconds would pause a second each time.)
      if (told?.remaining === 0 && told.resetMs !== undefined) pausedUntil = Math.max(pausedUntil, now() + told.resetMs);
      if (listen(told)) return;
      judge(attempt, true);
      if (attempt.waited && attempt.epoch === epoch) refusedInWave(attempt);
    },
  };
}
