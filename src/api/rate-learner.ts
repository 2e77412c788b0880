import { RateMeter } from './rate-meter.js';

/**
 * How fast the client sends: a small state machine. Each rule, each constant's figure and the
 * measurements: docs/rate-limits.md, "How the client paces".
 *
 *   ramp ──429──▶ paced ──429s a slower pace did not stop, or demand far under it──▶ ramp
 *   any ──RateLimit / X-RateLimit-* headers──▶ told
 *
 * Each state's rule is one method below: accepted (ramp, grow), refused (cut), listen (told).
 */
export const RATE_RULES = {
  initialConcurrency: 2,
  rampWindowMs: 200,
  settleMs: 200,
  cut: 0.9,
  halve: 0.5,
  climb: 1,
  growth: 0.01,
  growthDoublingMs: 10_000,
  headroom: 2,
  minRate: 0.5,
  windowMs: 2_000,
  trialAnswers: 10,
  stillRefused: 0.15,
  toleranceMargin: 0.05,
  toldShare: 0.98,
} as const;

/** ramp: `tolerated`, the share of 429s found not to follow the pace. paced: when it was cut, and whether a request sent since was accepted. */
type Ramp = { readonly kind: 'ramp'; concurrency: number; readonly tolerated: number };
type Paced = { readonly kind: 'paced'; rate: number; readonly climbing: boolean; readonly cutAt: number; acceptedSinceCut: boolean };
type RateState = Ramp | Paced | { readonly kind: 'told'; readonly rate: number };

/** A request sent: when, after how many cuts, and whether it waited behind the pace or the slots (sent as fast as it was let). */
export type Attempt = { readonly at: number; readonly epoch: number; readonly waited: boolean };

const R = RATE_RULES;

export class RateLearner {
  /** The API's limit: the rate it last refused, the one it told, or the one remembered. */
  limit: number | undefined;
  private state: RateState;
  private readonly accepts = new RateMeter(() => this.now());
  private readonly refusals = new RateMeter(() => this.now());
  private epoch = 0;
  private startedAt: number | undefined;
  private firstAnswerAt: number | undefined;
  private grownAt = 0;
  private suspect = false;
  private everRefused = false;
  /** The answers to requests sent from `at` on, judged a window on (see judge). */
  private trial: { readonly at: number; answers: number; refused: number } | undefined;

  constructor(
    private readonly ceiling: number,
    private readonly now: () => number,
    private readonly onCut?: (rate: number) => void,
  ) {
    this.state = this.ramp(0);
  }

  private ramp(tolerated: number): Ramp {
    return { kind: 'ramp', concurrency: Math.min(this.ceiling, tolerated > 0 ? this.ceiling : R.initialConcurrency), tolerated };
  }

  get concurrency(): number {
    return this.state.kind === 'ramp' ? this.state.concurrency : this.ceiling;
  }

  /** Requests per second to send at; undefined: not paced. */
  get pace(): number | undefined {
    return this.state.kind === 'ramp' ? undefined : this.state.rate;
  }

  /** Starts paced under a limit an earlier run found, unless this run has met a 429. */
  remember(limit: number): void {
    if (this.everRefused || !Number.isFinite(limit) || limit < R.minRate) return;
    this.limit = limit;
    this.setPace(R.cut * limit, false, true);
  }

  sent(waited: boolean): Attempt {
    this.startedAt ??= this.now();
    return { at: this.now(), epoch: this.epoch, waited };
  }

  /** A 2xx; `waiting`: more requests were waiting to be sent. */
  accepted(attempt: Attempt, waiting: boolean, told?: number): void {
    const now = this.now();
    this.accepts.add();
    if (this.listen(told)) return;
    const seconds = Math.min(1, (now - this.grownAt) / 1000);
    [this.grownAt, this.firstAnswerAt] = [now, this.firstAnswerAt ?? now];
    const state = this.state; // in the ramp, the first round trip tells the latency before more go
    if (state.kind === 'ramp' && (waiting || attempt.waited) && attempt.at >= this.firstAnswerAt)
      state.concurrency = Math.min(this.ceiling, state.concurrency + 1);
    if (state.kind !== 'paced') return;
    if (attempt.epoch === this.epoch) state.acceptedSinceCut = true;
    this.judge(attempt, false);
    if (waiting || attempt.waited) this.grow(state, seconds);
    // Demand far under the pace for a window: released, ramping from 2 again (the limit is kept).
    else if (now - state.cutAt > R.windowMs && state.rate > R.headroom * this.acceptedRate(R.windowMs)) this.state = this.ramp(0);
  }

  refused(attempt: Attempt, told?: number): void {
    this.refusals.add();
    this.everRefused = true;
    if (this.listen(told)) return;
    this.judge(attempt, true);
    // Sent before the last cut, or within `settleMs` of it: it met the bucket the last wave emptied.
    const settling = this.state.kind === 'paced' && attempt.at - this.state.cutAt < R.settleMs;
    if (attempt.waited && attempt.epoch === this.epoch && !settling) this.cut(attempt);
  }

  private cut(attempt: Attempt): void {
    const state = this.state;
    if (state.kind === 'ramp') {
      const no = this.refusals.countOver(R.windowMs);
      if (state.tolerated > 0 && no / (no + this.accepts.countOver(R.windowMs)) <= state.tolerated + R.toleranceMargin) return;
      this.setPace(R.cut * this.acceptedRate(Math.max(R.rampWindowMs, this.now() - attempt.at), R.rampWindowMs), true);
    } else if (state.kind === 'paced') {
      this.limit = state.rate;
      if (state.acceptedSinceCut) this.setPace(R.cut * state.rate, false);
      else this.setPace(R.halve * state.rate, true);
    }
  }

  private setPace(rate: number, climbing: boolean, acceptedSinceCut = false): void {
    const at = this.now();
    this.state = { kind: 'paced', rate: Math.max(R.minRate, rate), climbing, cutAt: at, acceptedSinceCut };
    this.trial ??= { at: at + R.windowMs / 2, answers: 0, refused: 0 };
    this.epoch += 1;
    this.onCut?.(this.state.rate);
  }

  /** Headers that tell the limit replace whatever was learned. */
  private listen(told: number | undefined): boolean {
    if (told !== undefined) {
      this.limit = told;
      this.state = { kind: 'told', rate: R.toldShare * told };
    }
    return this.state.kind === 'told';
  }

  /** While requests wait: quick while climbing, then slow, faster the longer no 429 came; never far over what is accepted. */
  private grow(paced: Paced, seconds: number): void {
    const growth = paced.climbing ? R.climb : Math.min(R.climb, R.growth * 2 ** ((this.now() - paced.cutAt) / R.growthDoublingMs));
    paced.rate = Math.max(paced.rate, Math.min(paced.rate * (1 + growth * seconds), R.headroom * this.acceptedRate(R.windowMs)));
  }

  /** A window after a cut, 429s still at a share of the answers, twice running, do not follow the pace: back to the ramp, tolerating that share. */
  private judge(attempt: Attempt, wasRefused: boolean): void {
    const trial = this.trial;
    if (trial === undefined || this.state.kind !== 'paced' || attempt.at < trial.at) return;
    trial.answers += 1;
    if (wasRefused) trial.refused += 1;
    if (this.now() - trial.at < R.windowMs || trial.answers < R.trialAnswers) return;
    const share = trial.refused / trial.answers;
    this.trial = undefined;
    // Twice in a row, with the pace cut in between: a limit refuses nothing once the pace is under it.
    this.suspect = share >= R.stillRefused && !this.suspect;
    if (share < R.stillRefused || this.suspect) return;
    this.limit = undefined;
    this.state = this.ramp(share);
    this.epoch += 1;
  }

  /** Accepted per second over the last `ms` (one request at least); in a younger run, over its age plus `burstMs` (the burst it spent). */
  private acceptedRate(ms: number, burstMs = 0): number {
    const age = this.now() - (this.startedAt ?? 0);
    return (Math.max(1, this.accepts.countOver(ms)) * 1000) / Math.max(50, age < ms ? age + burstMs : ms);
  }
}
