/**
 * Bounds on a token bucket's refill rate, read from which requests it accepted and refused (by
 * the time each was sent). A refused request found less than a token; an accepted one found one
 * at least. So between an accepted request i and a later refused one j the bucket refilled less
 * than it gave out: R < accepted[i, j) / (t_j - t_i); and between a refused request j and a later
 * accepted one i it refilled more than it gave out: R > accepted(j, i) / (t_i - t_j).
 *
 * The lower bound holds for any bucket, as long as requests reach it in the order they were sent
 * (the acceptances sent within `REORDER_MS` after the refusal are not counted). The upper one assumes the bucket did not fill to its brim
 * in between (tokens refilled past the brim are lost, and the bucket refuses sooner than its rate
 * says): it can read the rate too low, never too high, and is dropped when a lower bound passes it.
 * Send times are the client's: `JITTER_MS` widens every span both ways, and an accepted request
 * whose round trip took longer than the fastest one may have reached the API that much later than
 * it was sent (it opened a connection, or waited behind others sent in the same tick), so its
 * spans are widened by that excess too.
 */
export class RefillBounds {
  /** Send times (ms) of the accepted and refused requests recorded, each sorted. */
  private readonly acceptedAt: number[] = [];
  private readonly refusedAt: number[] = [];
  /** For each of `acceptedAt`, how much later than it was sent it may have reached the API (ms). */
  private readonly acceptedLate: number[] = [];
  /** Refusals whose upper bound waits for the answers to the requests sent before them (send time, lateness). */
  private unsettled: { readonly at: number; readonly lateMs: number }[] = [];
  private from = Number.POSITIVE_INFINITY;
  private upperBound = Number.POSITIVE_INFINITY;
  private lowerBound = 0;

  /** Requests per second the refill is under (Infinity: none known). */
  get upper(): number {
    return this.upperBound;
  }

  /** Requests per second the refill is over (0: none known). */
  get lower(): number {
    return this.lowerBound;
  }

  get recording(): boolean {
    return Number.isFinite(this.from);
  }

  /** Starts over with the requests sent from `from` on (ms); those recorded before are dropped. */
  start(from: number): void {
    this.from = from;
    this.upperBound = Number.POSITIVE_INFINITY;
    this.lowerBound = 0;
    this.acceptedLate.splice(0, dropBefore(this.acceptedAt, from));
    this.refusedAt.length = 0;
    this.unsettled = [];
  }

  /** Stops recording (and forgets). */
  stop(): void {
    this.from = Number.POSITIVE_INFINITY;
    this.acceptedAt.length = 0;
    this.acceptedLate.length = 0;
    this.refusedAt.length = 0;
    this.unsettled = [];
    this.upperBound = Number.POSITIVE_INFINITY;
    this.lowerBound = 0;
  }

  /**
   * Remembers an accepted request sent at `at` that may have reached the API up to `lateMs` after
   * that; also before `start` (the requests just before the first refusal belong to the span that
   * emptied the bucket, and `start` keeps them).
   */
  accepted(at: number, lateMs = 0): void {
    if (this.recording && at < this.from) return;
    if (this.acceptedAt.length >= MAX_EVENTS) this.acceptedLate.splice(0, MAX_EVENTS / 2);
    this.acceptedLate.splice(insertSorted(this.acceptedAt, at), 0, lateMs);
    if (!this.recording) return;
    // Over the refusals before it, the latest first: the refill since each was more than what was
    // accepted in between.
    for (let r = this.refusedAt.length - 1, seen = 0; r >= 0 && seen < LOWER_PAIRS; r--, seen++) {
      const refusedAt = this.refusedAt[r]!;
      if (refusedAt >= at) continue;
      // Requests sent just after the refusal may have reached the API before it: not counted.
      const between = countIn(this.acceptedAt, refusedAt + REORDER_MS, at);
      const rate = (between * 1000) / (at + lateMs - refusedAt + JITTER_MS);
      if (rate > this.lowerBound) this.lowerBound = rate;
    }
    if (this.lowerBound >= this.upperBound) this.upperBound = Number.POSITIVE_INFINITY;
  }

  /**
   * Remembers a refused request sent at `at` that may have reached the API up to `lateMs` after
   * that (ignored while not recording). The upper bound it gives counts the requests accepted of
   * those that reached the API before it, so it waits for the answers to every request sent until
   * it may have arrived (`settled`): answers to the requests of one tick come back in any order,
   * and a refused request on a new connection arrives after requests sent later. Read before
   * them, a refusal gave 20/s at R 50 and 200 ms (virtual time, new connections 10 ms late: 43
   * refused, 0.84 R).
   */
  refused(at: number, lateMs = 0): void {
    if (!this.recording || at < this.from) return;
    insertSorted(this.refusedAt, at);
    this.unsettled.push({ at, lateMs });
  }

  /** Every request sent before `before` (ms) has been answered: the refusals that reached the API before then give their upper bounds. */
  settled(before: number): void {
    if (this.unsettled.length === 0 || !this.recording) return;
    const waiting: { readonly at: number; readonly lateMs: number }[] = [];
    for (const refusal of this.unsettled) {
      if (refusal.at + refusal.lateMs + JITTER_MS < before) this.bound(refusal.at, refusal.lateMs + JITTER_MS);
      else waiting.push(refusal);
    }
    this.unsettled = waiting;
  }

  /** The upper bound a refusal sent at `at` gives, counting the acceptances sent up to `lateMs` after it. */
  private bound(at: number, lateMs: number): void {
    // Over the accepted requests before it, the latest first: k of them since the k-th latest.
    let k = upperIndex(this.acceptedAt, at + lateMs) - upperIndex(this.acceptedAt, at);
    for (let a = upperIndex(this.acceptedAt, at) - 1; a >= 0; a--) {
      k += 1;
      const span = at - this.acceptedAt[a]! - this.acceptedLate[a]! - JITTER_MS;
      if (span <= 0) continue;
      const rate = (k * 1000) / span;
      if (rate < this.upperBound) this.upperBound = rate;
    }
    if (this.upperBound <= this.lowerBound) this.upperBound = Number.POSITIVE_INFINITY;
  }
}

/** Event-loop lag and network jitter between the client's send time and the API's arrival. */
const JITTER_MS = 10;
/** At most this many events of each kind: past it, the oldest half goes (amortized O(1) a request). */
const MAX_EVENTS = 1_024;
/** Refusals a new acceptance is paired with. */
const LOWER_PAIRS = 16;
/**
 * Requests sent this close together may reach the API in any order (a ramp's round trip, the
 * retries of a wave, a busy event loop): a lower bound does not count the acceptances sent this
 * soon after its refusal. Counted, 19 accepted 2 ms after a refusal read 1,600/s, and a lower
 * bound of 162/s at R 50 and 200 ms (real process) had 391 of 1,912 requests refused.
 */
const REORDER_MS = 200;

/**
 * Answers come back in about the order their requests were sent: the place is found from the end.
 * Returns the index `at` went to.
 */
function insertSorted(list: number[], at: number): number {
  if (list.length >= MAX_EVENTS) list.splice(0, MAX_EVENTS / 2);
  let i = list.length;
  while (i > 0 && list[i - 1]! > at) i--;
  if (i === list.length) list.push(at);
  else list.splice(i, 0, at);
  return i;
}

/** Drops the entries before `from`; returns how many. */
function dropBefore(list: number[], from: number): number {
  let n = 0;
  while (n < list.length && list[n]! < from) n++;
  if (n > 0) list.splice(0, n);
  return n;
}

/** Index of the first entry > `at` (`orEqual`: >= `at`). */
function upperIndex(list: readonly number[], at: number, orEqual = false): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < at || (!orEqual && list[mid] === at)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Entries strictly between `after` and `before`. */
function countIn(list: readonly number[], after: number, before: number): number {
  return Math.max(0, upperIndex(list, before, true) - upperIndex(list, after));
}
