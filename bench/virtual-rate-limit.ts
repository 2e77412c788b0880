import { setImmediate as macrotask } from 'node:timers/promises';
import { readRateLimitHeaders } from '../src/api/rate-limit-headers.js';
import { Throttle } from '../src/api/throttle.js';
import { createRateLimiter, type RateLimitSettings } from '../src/simulator/http/rate-limit.js';
import { rateLimitHeaders, type RateLimitHeaderStyle } from '../src/simulator/http/rate-limit-headers.js';
import { seededRandom } from './seeded-random.js';

/**
 * Virtual time: `sleep` registers a timer, `run` fires them in order after every pending promise
 * has settled. Minutes of a client against a rate limit replay in milliseconds, the same every run.
 */
export class VirtualClock {
  private at = 0;
  private seq = 0;
  private readonly timers: { at: number; seq: number; fire: () => void }[] = [];

  readonly now = (): number => this.at;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      this.timers.push({ at: this.at + Math.max(0, ms), seq: this.seq++, fire: resolve });
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });

  /** Fires timers until `done` says so or none is left. */
  async run(done: () => boolean): Promise<void> {
    for (;;) {
      // Every promise that can settle without a timer settles before the next one fires.
      await macrotask();
      if (done() || this.timers.length === 0) return;
      let next = 0;
      for (let i = 1; i < this.timers.length; i++) {
        const t = this.timers[i]!;
        const n = this.timers[next]!;
        if (t.at < n.at || (t.at === n.at && t.seq < n.seq)) next = i;
      }
      const [timer] = this.timers.splice(next, 1);
      this.at = Math.max(this.at, timer!.at);
      timer!.fire();
    }
  }
}

export interface RateLimitedRun {
  /** Requests the API accepted (2xx) and refused (429). */
  readonly accepted: number;
  readonly refused: number;
  /** Virtual milliseconds until the last request was answered. */
  readonly elapsedMs: number;
  /** Arrival times of every request at the API (virtual ms). */
  readonly arrivals: readonly number[];
  /** Arrival times of the refused requests (virtual ms). */
  readonly refusals: readonly number[];
  /** The pace after each cut. */
  readonly decreases: readonly { readonly at: number; readonly rate: number }[];
  readonly throttle: Throttle;
}

export interface RateLimitedRunOptions {
  /** Requests per second the API allows (a token bucket, as `simulate --rate-limit`). */
  readonly rate: number;
  /** Tokens the bucket holds; default a fifth of a second's worth, as the simulator. */
  readonly burst?: number;
  readonly latencyMs: number;
  /** Requests to make in all (each retried until accepted). */
  readonly requests: number;
  /** Callers making them, each one request at a time (a backfill keeps hundreds waiting). */
  readonly callers?: number;
  readonly concurrency?: number;
  /** The API's limit from this virtual time on (a limit raised or lowered during the run). */
  readonly rateFrom?: { readonly at: number; readonly rate: number };
  /** A limit an earlier run found: the client starts from it (`Throttle.remember`). */
  readonly rememberedLimit?: number;
  /** 429s at this share whatever the rate, on top of the bucket. */
  readonly randomRefusals?: number;
  /** Seed of their draw (default 15): the same seed, the same run. */
  readonly randomSeed?: number;
  /**
   * A request sent on a new connection (more in flight than ever before) reaches the API this
   * much later than it was sent (the connection's setup; default 0). The client stamps it when it
   * sends it, so its readings of the limit see it early.
   */
  readonly connectMs?: number;
  /**
   * A client too busy to keep up: each answer takes this long of its one thread (answers queue
   * for it), so it handles at most 1,000 / this answers a second (default 0).
   */
  readonly answerCpuMs?: number;
  /** The API tells its limit in every answer, as `simulate --rate-limit-headers` (default: not told). */
  readonly headers?: RateLimitHeaderStyle;
}

/**
 * The client's throttle against the simulator's token bucket in virtual time: a request takes a
 * token on arrival, is answered after the latency, and a refused one waits out the whole-second
 * Retry-After the simulator sends before it goes through the throttle again.
 */
export async function runAgainstRateLimit(options: RateLimitedRunOptions): Promise<RateLimitedRun> {
  const clock = new VirtualClock();
  const decreases: { at: number; rate: number }[] = [];
  const throttle = new Throttle({
    concurrency: options.concurrency ?? 64,
    now: clock.now,
    sleep: clock.sleep,
    onThrottled: (rate) => decreases.push({ at: clock.now(), rate }),
  });
  if (options.rememberedLimit !== undefined) throttle.remember(options.rememberedLimit);
  let settings: RateLimitSettings = { ratePerSecond: options.rate, burst: options.burst ?? Math.max(1, Math.ceil(options.rate / 5)) };
  let limiter = createRateLimiter(settings);
  let switched = false;
  const arrivals: number[] = [];
  const refusals: number[] = [];
  let accepted = 0;
  let refused = 0;
  let next = 0;
  let finished = 0;
  const callers = options.callers ?? 256;
  const draw = seededRandom(options.randomSeed ?? 15);
  let inFlight = 0;
  let connections = 0;
  let busyUntil = 0;

  async function request(): Promise<void> {
    for (;;) {
      const retryAfterMs = await throttle.run(async (slot) => {
        inFlight += 1;
        if (inFlight > connections) {
          connections = inFlight;
          if (options.connectMs) await clock.sleep(options.connectMs);
        }
        const at = clock.now();
        if (options.rateFrom && !switched && at >= options.rateFrom.at) {
          switched = true;
          settings = { ratePerSecond: options.rateFrom.rate, burst: Math.max(1, Math.ceil(options.rateFrom.rate / 5)) };
          limiter = createRateLimiter(settings);
        }
        arrivals.push(at);
        const waitMs = options.randomRefusals !== undefined && draw() < options.randomRefusals ? 1_000 : limiter.take('token', at);
        // What the answer's headers tell, read as the client reads them.
        const told = options.headers ? readRateLimitHeaders(rateLimitHeaders(options.headers, settings, limiter, 'token', at), at) : undefined;
        await clock.sleep(options.latencyMs);
        if (options.answerCpuMs) {
          busyUntil = Math.max(clock.now(), busyUntil) + options.answerCpuMs;
          await clock.sleep(busyUntil - clock.now());
        }
        inFlight -= 1;
        if (waitMs === 0) {
          accepted += 1;
          slot.succeeded(told);
          return 0;
        }
        refused += 1;
        refusals.push(at);
        slot.throttled(told);
        return Math.max(1, Math.ceil(waitMs / 1000)) * 1000;
      });
      if (retryAfterMs === 0) return;
      await clock.sleep(retryAfterMs);
    }
  }

  async function caller(): Promise<void> {
    while (next < options.requests) {
      next += 1;
      await request();
      finished += 1;
    }
  }

  const callersDone = Promise.all(Array.from({ length: Math.min(callers, options.requests) }, caller));
  await clock.run(() => finished >= options.requests);
  await callersDone;
  return { accepted, refused, elapsedMs: clock.now(), arrivals, refusals, decreases, throttle };
}
