import { RateMeter } from './rate-meter.js';
import { RefillBounds } from './refill-bounds.js';

/**
 * How fast the client sends, learned from the API's answers (docs/rate-limits.md). The API does
 * not document its limit, so the client finds it:
 *
 * - **Ramp** (not paced): the concurrency starts small and grows by half a slot per success while
 *   requests are waiting (×1.5 per round trip; one slot, ×2, from 8 in flight), up to the
 *   ceiling (api.concurrency).
 * - **Paced** (after a 429 to a request that waited behind the limit or the pace): the client
 *   sends at a rate and no longer limits the concurrency below the ceiling. The rate is lowered
 *   once per wave (answers to requests sent before the last decrease do not count again), and
 *   the pace's saved-up tokens are dropped, so a request refused after a decrease says the new
 *   rate is still over the limit.
 * - **The limit**: after the first 429 of an episode the API's bucket is empty; when it refuses
 *   again, what it accepted of the requests sent in between is its refill rate, the limit
 *   without its burst. The rate goes to 99 % of that. Before an episode has enough answers, the
 *   first 429 sets 99 % of what was accepted lately (over the last round trip during the ramp;
 *   refused within that window of the run's first request, what was accepted since over that time
 *   plus the shortest burst assumed, `MIN_BURST_MS`) and a 429 in the next wave at most halves the
 *   rate; either regrows quickly (×2 a second) to just under the rate refused. Until a level is
 *   found the client also bounds the refill from which requests the API accepted and refused
 *   (refill-bounds.ts): the rate, its quick regrowth and an episode's reading stay under the upper
 *   bound, and bounds within 10 % of each other give the limit as soon as they are (on an
 *   acceptance too). A request answered slower than the fastest answer may have reached the API
 *   that much after it was sent, and a refusal bounds the refill once every request sent before it
 *   is answered (`inFlight`). At R 10 (virtual time, 30-s runs) this took the first run from 10-11
 *   refusals to 7 at 20-50 ms; with the burst counted in the first reading, to 5.
 * - **Hold and probe**: once the limit is known the rate holds under it (4 s), then probes above
 *   it, slowly at first (+2 % a second, doubling every second), to find a raised limit. A
 *   refused probe reads the level again from what the API accepted since the last refusal (a
 *   lower bound while the rate held under the limit: it raises a level found a little low; a
 *   reading under the rate held is the limit itself, as the API's bucket never filled). The first
 *   probe after a level read while learning also raises it to what the API accepted over the
 *   last two seconds (a few answers read the level within a token of the limit).
 *   Refused again at the same level, the hold doubles (up to 64 s); a level that moved resets it.
 *   A 429 under the limit found within two seconds of a decrease (a burst emptied the API's
 *   bucket) does not lower the rate, nor does one in the waves after a decrease to under the level
 *   found before (the rate before it emptied the bucket); one while the rate has held under the level longer says the
 *   level is too high (or the limit was lowered), and the level goes to what the API accepted
 *   since the last refusal. The pace is released once it is twice what is accepted and nothing
 *   waits.
 * - **429s that do not follow the pace** (an API refusing a share of requests whatever the rate):
 *   two seconds after a decrease, if 15 % or more of the requests of the last second (two at
 *   least) are still refused, or (at a pace too slow for a second to tell) of the requests sent
 *   from a second after the decrease on (ten answers, three refused at least), the decrease is
 *   undone, the requests waiting for the pace go at once, and 429s at that share no longer lower
 *   the rate. Not when the pace held under the level found was refused 1 % at most (40 answers at
 *   least): then the 429s follow the pace, and those judged came with a limit lowered meanwhile.
 * - The refused request itself waits out its Retry-After (retry-policy.ts) and comes back through
 *   the throttle: retries coming back together are paced like any other request.
 * - **Remembered** (`remember`): the limit an earlier run found. The client starts paced just
 *   under it, as if it had just found it (hold, then probe), instead of ramping into the limit:
 *   learning it cost 5-6 refusals at R 10 in virtual time, 1.6-2.0 % of a 30-s run; starting from
 *   it costs the probes alone (2).
 */
export interface AdaptiveRate {
  /** The concurrency limit now (an integer from 1 to the ceiling). */
  readonly concurrency: number;
  /** Requests per second to pace at; undefined: not paced. */
  readonly pacing: number | undefined;
  /** The paced rate learned from 429s; undefined when not paced. */
  readonly learned: number | undefined;
  /**
   * The API's limit (requests/s) found last in this run, or the one remembered when no 429 moved
   * it; kept when the pace is released (a run whose demand fell under the limit still knows it).
   * Undefined when none is known or the 429s did not follow the pace.
   */
  readonly limitFound: number | undefined;
  /** Starts paced just under a limit an earlier run found; ignored once this run has been refused. */
  remember(limit: number): void;
  /**
   * Called when an attempt is sent; what it returns goes back to `succeeded`/`throttled`.
   * `waited`: it waited behind the limit or the pace (the client sent as fast as it was let).
   */
  sent(waited: boolean): SentAttempt;
  /** A 2xx. `waiting`: requests were queued behind the limit (more would have been sent). */
  succeeded(attempt: SentAttempt, waiting: boolean): void;
  /** A 429. */
  throttled(attempt: SentAttempt): void;
  /** The attempt is over (any outcome; after `succeeded`/`throttled` when it had one). */
  ended(attempt: SentAttempt): void;
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

/**
 * Two in flight at first: one round trip tells the latency before more are sent together. The
 * answers to that first round trip do not grow the ramp: at R 10 (a burst of 2) and 20 ms, the
 * 3 sent when they came were all refused, 2 now; R 10 at 100 ms, 10 refusals in a 30-s run, 7 now.
 */
const INITIAL_CONCURRENCY = 2;
/**
 * Per success while requests wait: ×1.5 per round trip while few are in flight, where one more is
 * a large share of a low limit's burst (at R 10 and 200 ms, 2 in flight are the limit already:
 * +1 per success sent 4 in the next round trip, 2 refused); ×2 from `RAMP_FAST_FROM` on, where
 * the ramp's length is what costs (2 to 40 in flight: 8 round trips at ×1.5, 1.6 s at 200 ms
 * of a 30 s run; 6 with ×2 from 8).
 */
const RAMP_STEP = 0.5;
const RAMP_FAST_STEP = 1;
const RAMP_FAST_FROM = 8;
/**
 * The fastest round trip is kept this long: an API that slowed down (or a first answer from a
 * cache) would otherwise make every later answer read as late, and the refill's bounds as wide.
 */
const FASTEST_KEPT_MS = 10_000;
/** Weight of a new latency sample in the moving average. */
const LATENCY_WEIGHT = 0.1;
/** At least four of the meter's slots: one, partly filled, read a tenth of the rate. */
const RAMP_WINDOW_MS = 200;
/**
 * The shortest burst the client assumes of an API's bucket, in milliseconds of its rate (the
 * simulator's default; a longer one changes nothing below, a shorter one costs a quick regrowth).
 * Refused within the run's first reading window, the bucket held its burst at the start and was
 * empty at the refusal: it accepted its burst plus R x the time since, so R is at most what it
 * accepted over that time plus this. Read as what was accepted over the time alone, the burst spent
 * by the first round trip read 40/s at R 10 and 20 ms, and halving down to the limit was refused
 * twice more (virtual time, 30-s runs: 7 refusals at R 10 and 20-50 ms, 5 so).
 */
const MIN_BURST_MS = 200;
/** A decrease sets the rate just under the limit's estimate, so a right estimate is refused nothing. */
const DECREASE = 0.99;
/**
 * Refusals again within this long of a decrease belong to the same episode: the API's bucket was
 * empty at the episode's first refusal and at this one, so what it accepted of the requests sent
 * in between is its refill rate, the limit itself, without the burst (which at R 10 read as 40/s
 * at the first refusal, 40 ms into a run).
 */
const EPISODE_MS = 3_000;
/**
 * Accepted requests an episode needs before its rate is trusted (at 10/s, half a second of them).
 * In virtual time against the simulator's bucket (30 s runs): 4 read 9.2/s at R 10 and 200 ms and
 * held 0.92 R for the whole run; 5 reads 9.9/s (0.996 R) at the cost of a few more refusals.
 */
const EPISODE_MIN_ACCEPTED = 5;
/**
 * Refused again in the next wave with no estimate of the limit yet: at most half the rate. At R
 * 10 and 20 ms a wave is a request or two: halving finds the limit in two or three of them, where
 * the old rule (one decrease a second) sent at 39/s for a second (~30 refused).
 */
const HALVE = 0.5;
/**
 * After a decrease with no estimate of the limit: regrowth ×2 a second up to `QUICK_UNTIL` × the
 * rate refused (the ramp's first refusal reads the ramp's slow start: 34/s at R 50 and 200 ms).
 */
const QUICK_GROWTH = 1.0;
const QUICK_UNTIL = 0.9;
/**
 * Once the limit is known the rate holds just under it, then probes above it, slowly at first
 * (+2 % a second, doubling every second: +20 % after 3 s, +90 % after 5 s), so a raised limit is
 * found. A probe refused at the same level (within `SAME_LEVEL`) doubles the hold, up to
 * `MAX_HOLD_MS`; a level that moved resets it. Each probe costs a refusal or two: at R 10, one
 * every cycle of ~2 s was 5-10 % of the requests refused (B10); the budget is 2 %.
 */
const HOLD_MS = 4_000;
const MAX_HOLD_MS = 64_000;
const SAME_LEVEL = 0.05;
const PROBE_OVERSHOOT = 0.15;
/** Accepted requests between two refusals before their refill rate is trusted (±1 is 5 %). */
const ANCHOR_MIN_ACCEPTED = 20;
const PROBE_GROWTH = 0.02;
const MAX_PROBE_GROWTH = 1.0;
/** The meter's window: a decrease is judged once what is accepted reflects it. */
const TRIAL_MS = 2_000;
/** Share of requests refused over the last second that says the pace did not stop the 429s. */
const STILL_REFUSED = 0.15;
/** And this many of them at least (at a low rate one request is a large share). */
const STILL_REFUSED_COUNT = 2;
/**
 * At a slow pace: the answers a trial waits for (unless it is `TRIAL_MAX_MS` old), and the
 * refusals among them, at `STILL_REFUSED` or more, that say the pace did not stop the 429s.
 */
const TRIAL_MIN_ANSWERS = 10;
const TRIAL_REFUSED_COUNT = 3;
const TRIAL_MAX_MS = 30_000;
/**
 * Answers held under the level, and the share of them refused at most, that say the API's 429s
 * follow the pace: held under a limit, none is refused. At 2 % (virtual time), 3 % at random on
 * top of a limit of 200/s was read as following the pace often enough to double its median (152 s
 * to 286 s for 6,000 requests); at 1 % no random-429 case moved. The oldest half is dropped past
 * `HELD_KEPT`.
 */
const HELD_ANSWERS = 40;
const HELD_REFUSED = 0.01;
const HELD_KEPT = 400;
/** 429s over the background share plus this lower the rate again. */
const BACKGROUND_MARGIN = 0.05;
/** Released when the rate is this many times what is accepted and nothing waits. */
const RELEASE_AT = 2;
/** Bounds on the refill within this share of each other tell the limit. */
const BOUNDS_NARROW = 0.1;
/** Never slower than one request every two seconds. */
const MIN_RATE = 0.5;

/**
 * The lower end of a one-sided 84 % Wilson interval (one standard deviation) of `refused` of
 * `answers`: a share read from few answers is read low (4 of 12 as 0.22, 30 of 100 as 0.26). At
 * 95 % (4 of 12 as 0.16) a steady 30 % was read so low that its 429s kept lowering the rate.
 */
export function shareAtLeast(refused: number, answers: number): number {
  if (answers <= 0) return 0;
  const z = 1.0;
  const p = refused / answers;
  const z2 = (z * z) / answers;
  const centre = p + z2 / 2;
  const spread = z * Math.sqrt((p * (1 - p)) / answers + z2 / (4 * answers));
  return Math.max(0, (centre - spread) / (1 + z2));
}

export function createAdaptiveRate(options: AdaptiveRateOptions): AdaptiveRate {
  const now = options.now ?? performance.now.bind(performance);
  const ceiling = Math.max(1, options.ceiling);
  const accepted = new RateMeter(now);
  const refused = new RateMeter(now);
  /** While the limit is being learned (from the first refusal until a level is found). */
  const bounds = new RefillBounds();
  let limit = Math.min(ceiling, INITIAL_CONCURRENCY);
  let latencyMs: number | undefined;
  /**
   * The fastest round trip of an accepted request: one that took longer may have reached the API
   * that much after it was sent (a new connection, or the last of many sent in one tick: 64 sent
   * at once reach a local server over ~15 ms), which the refill's bounds allow for.
   */
  let fastestMs = Number.POSITIVE_INFINITY;
  let fastestAt = Number.NEGATIVE_INFINITY;
  /** Attempts sent and not answered yet, oldest first. */
  const inFlight: SentAttempt[] = [];
  /** When the first answer came: requests sent before it are the first round trip. */
  let firstAnsweredAt: number | undefined;
  /** When the first request was sent, and how many the API has accepted in all. */
  let firstSentAt: number | undefined;
  let acceptedCount = 0;
  let rate: number | undefined;
  let quickUntil = 0;
  let grownAt = 0;
  let decreasedAt = Number.NEGATIVE_INFINITY;
  /** The refusals close together: when the first refused request was sent; what was sent since and accepted. */
  let episode: { readonly startedAt: number; accepted: number; lastSentAt: number } | undefined;
  /**
   * The last refused request (when it was sent) and what the API accepted of the requests sent
   * since: the API's bucket was empty at both refusals, so between them it accepted exactly what
   * it refilled (a little less when its bucket filled to the brim in between).
   */
  let anchor: { at: number; accepted: number } | undefined;
  /** The limit found (requests/s), and how long the rate holds under it before probing. */
  let level: number | undefined;
  /** The level was read while learning the limit, from a few answers: its first probe may raise it. */
  let provisional = false;
  let holdMs = HOLD_MS;
  let holdUntil = 0;
  /** The limit found last in this run (or remembered); outlives a release of the pace. */
  let limitFound: number | undefined;
  /** A 429 was seen: what this run learned wins over what is remembered. */
  let refusedOnce = false;
  /**
   * The first decrease not judged yet, and the answers to the requests sent in its second half
   * or later (the first second after a decrease still meets an API's bucket emptied before it).
   */
  let trial: { readonly at: number; accepted: number; refused: number } | undefined;
  /**
   * Answers to the requests sent while the pace held under the level found (no decrease for
   * `TRIAL_MS` before): how many, and how many refused.
   */
  const held = { answers: 0, refused: 0 };
  /** Share of 429s found not to follow the pace. */
  let background = 0;
  // Bumped on every decrease; an attempt sent before it says nothing new when it is refused.
  let epoch = 0;

  /** The rate sent at now: the paced one, or during the ramp what the window allows per round trip. */
  function sendingRate(): number | undefined {
    if (rate !== undefined) return rate;
    return latencyMs === undefined ? undefined : (Math.floor(limit) * 1000) / Math.max(1, latencyMs);
  }

  function refusedShare(overMs = TRIAL_MS): number {
    const no = refused.perSecondOver(overMs) ?? 0;
    const yes = accepted.perSecondOver(overMs) ?? 0;
    return no + yes === 0 ? 0 : no / (no + yes);
  }

  /** An answer to a request sent during the episode. */
  function inEpisode(attempt: SentAttempt): boolean {
    // Sent with the episode's first refused request but before it: served by tokens earned before.
    if (episode === undefined || attempt.at <= episode.startedAt) return false;
    episode.lastSentAt = Math.max(episode.lastSentAt, attempt.at);
    return true;
  }

  /**
   * During the ramp, what the API accepted over the last `windowMs`; for a request refused that
   * soon after the run's first one, at most what it refilled with the shortest burst assumed
   * (`MIN_BURST_MS`).
   */
  function rampReading(refusedAt: number, windowMs: number): number | undefined {
    const reading = accepted.perSecondOver(windowMs);
    if (reading === undefined || firstSentAt === undefined || refusedAt - firstSentAt > windowMs) return reading;
    return Math.min(reading, (acceptedCount * 1000) / (refusedAt - firstSentAt + MIN_BURST_MS));
  }

  /** The API's refill rate: what it accepted of the requests sent between two refusals. */
  function episodeRate(): number | undefined {
    if (episode === undefined || episode.accepted < EPISODE_MIN_ACCEPTED) return undefined;
    const spanMs = episode.lastSentAt - episode.startedAt;
    return spanMs > 0 ? ((episode.accepted + 0.5) * 1000) / spanMs : undefined;
  }

  /**
   * The API's refill rate since the last refusal, read at a refusal sent at `sentAt` (which becomes
   * the new anchor); undefined when too few requests were accepted in between to tell.
   */
  function anchorRate(sentAt: number): number | undefined {
    if (anchor !== undefined && sentAt <= anchor.at) return undefined;
    const last = anchor;
    anchor = { at: sentAt, accepted: 0 };
    if (last === undefined || last.accepted < ANCHOR_MIN_ACCEPTED) return undefined;
    return (last.accepted * 1000) / (sentAt - last.at);
  }

  /**
   * A probe refused: the level found before, moved when what the API accepted says the limit
   * moved. Two readings: over the meter's two seconds (up to a tenth over the limit: the API's
   * burst, R/5, spent within them), which tells a raised limit at once; and the refill rate since
   * the last refusal, a lower bound (the API's bucket may have filled to the brim while the rate
   * held under the limit), which raises the level a few per cent the first reading cannot see.
   * Under the rate held (`DECREASE` x the level) it is no lower bound: the API accepted less
   * than it was sent, so its bucket never filled, and the reading is the limit (R 10 and 20 ms:
   * a level of 10.35/s kept against a reading of 10.2/s was refused again 4 s later).
   * A level read while learning (`provisional`) is also raised to the first reading: an episode of
   * 7 answers at R 10 reads within a token of the limit, 9.5/s, and the refill since the last
   * refusal, read while the rate held under it, reads the same 9.5/s at every probe (the run held
   * 0.94-0.95 R). Only the first probe: after a level read right the meter reads the burst too
   * (21/s at R 20), and every hold over the limit was refused.
   */
  function probedLevel(known: number, measured: number | undefined, sample: number | undefined): number | undefined {
    if (measured === undefined) return undefined;
    if (measured > (1 + PROBE_OVERSHOOT) * known) return measured;
    if (sample !== undefined) return sample >= DECREASE * known ? Math.max(known, sample, provisional ? measured : known) : sample;
    return measured >= (1 - SAME_LEVEL) * known ? known : measured;
  }

  /**
   * Refused while the rate held at `current` under the level: the level was read too high (the
   * refill since the last refusal read ~4 % over the limit at R 10, and the rate held over it
   * refused one request every ~5 s for the rest of the run), or the limit was lowered. The refill
   * since the last refusal when known; else what the API accepted over the meter's window when
   * clearly under the rate (a lowered limit); else just under the rate refused.
   */
  function heldLevel(current: number, measured: number | undefined, sample: number | undefined): number {
    if (sample !== undefined && sample < current) return sample;
    if (measured !== undefined && measured < (1 - SAME_LEVEL) * current) return measured;
    return current / (1 + 2 * (1 - DECREASE));
  }

  /**
   * Undoes a decrease two seconds old after which the API still refuses a share of requests: the
   * 429s did not follow the pace (30 % random 429s stay 30 % at any rate), so the client is no
   * longer paced and 429s at that share no longer lower the rate.
   */
  function judgeTrial(at: number): void {
    if (trial === undefined || at - trial.at < TRIAL_MS) return;
    // A limit lowered (100/s to 50/s) lowers what is accepted too, but once the pace follows it
    // the refusals stop: refusals still at a share over the last second did not follow the pace.
    // Two of them at least: paced at 3.5/s one is 22 %. A limit halved to 5/s mid-run was judged
    // not to follow the pace every 2-3 s, and each time the requests waiting went at once (939
    // of 1,239 requests refused, virtual time).
    const lastSecond = refused.countOver(1_000) >= STILL_REFUSED_COUNT && refusedShare(1_000) >= STILL_REFUSED;
    // At a pace too slow for a second to tell (0.5-2.5/s), the answers to the requests sent since
    // the trial's second half: 30 % random 429s held at such a pace were never judged, and 3,000
    // requests took up to 310 s instead of 23 s. Counted over the whole trial instead, the limit
    // halved to 5/s was judged on the refusals of its own descent (169 refused instead of 19).
    const answers = trial.accepted + trial.refused;
    if (!lastSecond && answers < TRIAL_MIN_ANSWERS && at - trial.at < TRIAL_MAX_MS) return;
    const share = answers === 0 ? 0 : trial.refused / answers;
    const sinceTrial = answers >= TRIAL_MIN_ANSWERS && share >= STILL_REFUSED && trial.refused >= TRIAL_REFUSED_COUNT;
    // Held under the level found, the API refused (almost) none: its 429s follow the pace, and
    // the ones judged came with a limit lowered during the trial. Judged on them, a limit halved
    // soon after a probe's decrease had the requests waiting go at once (R 10 to 5 at 20 ms,
    // halved at 18 s: 86 refused, 15 at most other moments; R 100 to 50, at 13 s: 147, 42).
    const followedBefore = held.answers >= HELD_ANSWERS && held.refused <= HELD_REFUSED * held.answers;
    if ((lastSecond || sinceTrial) && !followedBefore) {
      rate = undefined;
      level = undefined;
      limitFound = undefined;
      episode = undefined;
      bounds.stop();
      held.answers = 0;
      held.refused = 0;
      // The share those 429s come at, read low: a share of a few answers is a wide guess (4 of 12
      // at 6/s, with 3 % refused at random, set 33 %, and a limit then overshot by 37 % was
      // ignored: 3,155 refused in 26 s, virtual time).
      const refusedLately = refused.countOver(TRIAL_MS);
      background = Math.max(
        background,
        lastSecond ? shareAtLeast(refusedLately, refusedLately + accepted.countOver(TRIAL_MS)) : shareAtLeast(trial.refused, answers),
      );
      epoch += 1;
    }
    trial = undefined;
  }

  /** Counts an answer to a request sent while the pace held under the level. */
  function countHeld(attempt: SentAttempt, wasRefused: boolean): void {
    if (level === undefined || rate === undefined || attempt.epoch !== epoch) return;
    if (attempt.at - decreasedAt < TRIAL_MS || rate > DECREASE * level * (1 + 1e-9)) return;
    if (held.answers >= HELD_KEPT) {
      held.answers /= 2;
      held.refused /= 2;
    }
    held.answers += 1;
    if (wasRefused) held.refused += 1;
  }

  /** Counts an answer for the trial when its request was sent in the trial's second half or later. */
  function countForTrial(attempt: SentAttempt, wasRefused: boolean): void {
    if (trial === undefined || attempt.at < trial.at + TRIAL_MS / 2) return;
    if (wasRefused) trial.refused += 1;
    else trial.accepted += 1;
  }

  /**
   * The limit when the bounds read while learning it are close enough to tell (undefined: not
   * yet): the upper one, which can read low (the API's bucket filled while the pace was under the
   * limit), never high. Halfway between them, R 10 at 200 ms held at 0.967 R for 300 s; 0.974 R so.
   */
  function learnedLevel(): number | undefined {
    if (level !== undefined || !bounds.recording) return undefined;
    const { lower, upper } = bounds;
    return lower > 0 && upper <= (1 + BOUNDS_NARROW) * lower ? upper : undefined;
  }

  /**
   * A reading of the limit, kept under the upper bound known while learning it. Not raised to the
   * lower one: answers that reach the API in another order than they were sent (a busy event loop)
   * read a lower bound far too high (162/s at R 50 and 200 ms), and every 429 under it was taken
   * for a burst: 391 of 1,912 requests refused.
   */
  function underUpperBound(reading: number | undefined): number | undefined {
    if (reading === undefined || !bounds.recording) return reading;
    return Math.min(reading, bounds.upper);
  }

  /** An attempt answered (or ended): the refusals sent before every attempt still in flight give their bounds. */
  function answered(attempt: SentAttempt): void {
    const index = inFlight.indexOf(attempt);
    if (index < 0) return;
    inFlight.splice(index, 1);
    bounds.settled(inFlight[0]?.at ?? Number.POSITIVE_INFINITY);
  }

  /** A level found: the rate holds just under it, then probes above it. */
  function settle(found: number, at: number, learning: boolean): void {
    bounds.stop();
    provisional = learning;
    holdMs = level !== undefined && Math.abs(found / level - 1) <= SAME_LEVEL ? Math.min(MAX_HOLD_MS, holdMs * 2) : HOLD_MS;
    level = found;
    limitFound = found;
    holdUntil = at + holdMs;
    quickUntil = 0;
  }

  /** Growth per second while requests wait: quick back under the rate refused, none while holding, then a probe that speeds up. */
  function grow(current: number, at: number, seconds: number): number {
    if (current < quickUntil) {
      // Under the upper bound known now: one that settled after the decrease (the rest of the
      // refused request's tick answered after it) was not known when `quickUntil` was set, and
      // R 200 at 200 ms regrew to 288/s (19 more refused, virtual time).
      const bound = bounds.recording ? DECREASE * bounds.upper : Number.POSITIVE_INFINITY;
      return Math.max(current, Math.min(quickUntil, bound, current * (1 + QUICK_GROWTH * seconds)));
    }
    if (at < holdUntil) return current;
    const probe = Math.min(MAX_PROBE_GROWTH, PROBE_GROWTH * 2 ** ((at - holdUntil) / 1000));
    return current * (1 + probe * seconds);
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
    get limitFound() {
      return limitFound;
    },
    remember(remembered) {
      if (refusedOnce || rate !== undefined || !(remembered >= MIN_RATE) || !Number.isFinite(remembered)) return;
      level = remembered;
      limitFound = remembered;
      rate = DECREASE * remembered;
      holdMs = HOLD_MS;
      holdUntil = now() + HOLD_MS;
    },
    sent(waited) {
      const at = now();
      firstSentAt ??= at;
      const attempt = { at, epoch, waited };
      inFlight.push(attempt);
      return attempt;
    },
    ended: answered,
    succeeded(attempt, waiting) {
      accepted.add();
      acceptedCount += 1;
      if (inEpisode(attempt)) episode!.accepted += 1;
      if (anchor !== undefined && attempt.at > anchor.at) anchor.accepted += 1;
      countForTrial(attempt, false);
      countHeld(attempt, false);
      const at = now();
      const sample = at - attempt.at;
      if (sample <= fastestMs || at - fastestAt > FASTEST_KEPT_MS) {
        fastestMs = sample;
        fastestAt = at;
      }
      bounds.accepted(attempt.at, sample - fastestMs);
      answered(attempt);
      firstAnsweredAt ??= at;
      judgeTrial(at);
      latencyMs = latencyMs === undefined ? sample : latencyMs + LATENCY_WEIGHT * (sample - latencyMs);
      // Up to a second per answer: a chain of one request at a time paced at 0.5/s grows too.
      const seconds = Math.min(1, Math.max(0, at - grownAt) / 1000);
      waiting ||= attempt.waited;
      grownAt = Math.max(grownAt, at);
      if (rate === undefined) {
        if (waiting && attempt.at >= firstAnsweredAt!) limit = Math.min(ceiling, limit + (limit < RAMP_FAST_FROM ? RAMP_STEP : RAMP_FAST_STEP));
        return;
      }
      // Bounds that narrowed on this acceptance tell the limit now, not at the next refusal: left
      // to it, the rate went on probing above them and was refused once more (R 10 and 20 ms, on
      // the machine: bounds of 9.55-10.14/s at 4.05 s, a refusal at 4.14 s).
      const narrowed = learnedLevel();
      if (narrowed !== undefined) {
        settle(narrowed, at, true);
        rate = Math.max(MIN_RATE, DECREASE * narrowed);
        return;
      }
      if (!waiting) {
        // Demand is under the pace: released once far under it (a rate limit is met again by a 429).
        if (trial === undefined && rate >= RELEASE_AT * (accepted.perSecond() ?? rate)) {
          rate = undefined;
          level = undefined;
          bounds.stop();
        }
        return;
      }
      rate = grow(rate, at, seconds);
    },
    throttled(attempt) {
      refused.add();
      refusedOnce = true;
      inEpisode(attempt);
      const sample = anchorRate(attempt.at);
      countForTrial(attempt, true);
      countHeld(attempt, true);
      if (level === undefined && !bounds.recording) bounds.start(attempt.at - (latencyMs ?? 0));
      const at = now();
      bounds.refused(attempt.at, Math.max(0, at - attempt.at - fastestMs));
      answered(attempt);
      firstAnsweredAt ??= at;
      judgeTrial(at);
      if (attempt.epoch !== epoch) return;
      // Sent without waiting: the client sent at the pace of its own work, which a limit under
      // it refuses request by request (each waits its Retry-After). At the tail of a run one
      // chain of requests measured ~0 accepted over two seconds and paced the rest at 0.5/s.
      if (!attempt.waited) return;
      // Refusals at the share found not to follow the pace say nothing about the pace.
      if (background > 0 && refusedShare() <= background + BACKGROUND_MARGIN) return;
      // Refused before any success: the refusal's round trip is the only latency known.
      latencyMs ??= Math.max(1, at - attempt.at);
      const current = sendingRate() ?? Math.floor(limit);
      // During the ramp, what the API accepted of the last round trip: over two seconds the ramp's
      // slow start reads as the limit (80/s at R 200 and 200 ms). Nothing accepted over it is no
      // reading: an API refusing 30 % at random refused a run's first answers, and a limit of 0 set
      // the pace to 0.5/s.
      const acceptedRate = rate === undefined ? rampReading(attempt.at, Math.max(RAMP_WINDOW_MS, latencyMs)) : accepted.perSecond();
      const measured = acceptedRate === 0 ? undefined : acceptedRate;
      const recent = at - decreasedAt < EPISODE_MS;
      // An episode reads at most `EPISODE_MS` of answers: a longer one mixes a limit before a change
      // with the one after it (R 100 halved mid-run: readings went 99/s to 76/s over two seconds of
      // refusals, 180 refused; 52 so). It costs where 429s at random come on top of a limit (R 200
      // and 20 ms with 3 %: 33-93 s over five draws, 135-299 s so): their episodes read less.
      const continuing = episode !== undefined && recent && attempt.at - episode.startedAt < EPISODE_MS;
      if (!continuing) episode = { startedAt: attempt.at, accepted: 0, lastSentAt: attempt.at };
      // The limit: the episode's refill rate; or, refused after a hold and a probe (the meter's
      // whole window paced near the limit), what the API accepted over it.
      const probed = !recent && rate !== undefined && level !== undefined && at - decreasedAt >= TRIAL_MS;
      // Refused while holding under the level (not probing above it): the level is over the limit.
      const holding = probed && current <= DECREASE * level! * (1 + 1e-9);
      const found =
        underUpperBound(episodeRate()) ?? (holding ? heldLevel(current, measured, sample) : probed ? probedLevel(level!, measured, sample) : learnedLevel());
      // Refused under the limit found (an earlier burst emptied the API's bucket): not the pace.
      if (found !== undefined && DECREASE * found >= current) return;
      // Refused in the waves after a decrease to under the level known: the rate before the
      // decrease emptied the API's bucket; the episode tells whether the level itself is too high.
      if (found === undefined && continuing && level !== undefined && current <= DECREASE * level * (1 + 1e-9)) return;
      let next = Math.min(current, Math.max(MIN_RATE, DECREASE * (found ?? measured ?? current / 2)));
      // Judged against a whole window: at the start of a run the burst a rate limit lets through
      // at once fills a short one (40 requests in 0.1 s at R 200 read as 3 R).
      if (measured !== undefined && accepted.spansWindow()) trial ??= { at, accepted: 0, refused: 0 };
      // While learning, never over what the API is known not to refill (the ramp's burst read 40/s
      // at R 10, and a refusal in the next wave halved that: 3 more refused to find 10/s).
      if (found === undefined && bounds.recording) next = Math.min(next, DECREASE * bounds.upper);
      if (found !== undefined) settle(found, at, !probed && !holding);
      else if (continuing) {
        // Refused again in the wave after a decrease, the limit still unknown.
        next = Math.max(MIN_RATE, Math.min(next, HALVE * current));
        holdUntil = at;
        quickUntil = Math.min(QUICK_UNTIL * current, DECREASE * bounds.upper);
        // Halved, the rate is likely under the limit and the API's bucket refills: the episode
        // starts again at the next refusal.
        episode = undefined;
      } else {
        // The ramp's sending rate may be far over the limit (×1.5 a round trip): the quick regrowth
        // stops under it.
        holdUntil = at;
        quickUntil = Math.min(QUICK_UNTIL * current, DECREASE * bounds.upper);
      }
      rate = next;
      decreasedAt = at;
      grownAt = at;
      epoch += 1;
      options.onThrottled?.(rate);
    },
  };
}
