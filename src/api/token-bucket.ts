import { setTimeout as sleep } from 'node:timers/promises';

/** A requests-per-second budget shared by every worker. */
export interface TokenBucket {
  /** Resolves when the caller may send one request. */
  take(signal?: AbortSignal): Promise<void>;
  /** Changes the rate from now on (tokens earned so far are kept, up to the new capacity). */
  setRate(ratePerSecond: number): void;
  /** Spends the tokens earned so far: the next taker waits a whole interval at the rate in force. */
  drain(): void;
  /**
   * Lets every taker through from now on, those already queued included (the one waiting for its
   * token is woken): a pace the throttle dropped no longer paces the requests queued in it.
   */
  open(): void;
  readonly rate: number;
}

export interface TokenBucketOptions {
  /** Seconds of tokens the bucket holds (the burst). Default 1. */
  readonly burstSeconds?: number;
  /** Tokens at the start (default: full, the whole burst). */
  readonly initialTokens?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Burst of up to `burstSeconds` worth of tokens (at least one), refilled continuously. Takers
 * that find the bucket empty queue and leave one at a time, each after the wait the rate in
 * force asks for then: a rate lowered after a 429 applies to every request still waiting (when
 * takers reserved future slots at the old rate, 64 of them went on at it for seconds).
 */
export function createTokenBucket(ratePerSecond: number, options: TokenBucketOptions = {}): TokenBucket {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const burstSeconds = options.burstSeconds ?? 1;
  let rate = ratePerSecond;
  let capacity = Math.max(1, rate * burstSeconds);
  let tokens = Math.min(capacity, options.initialTokens ?? capacity);
  let updatedAt = now();
  // The queue of takers: each waits for the one before it.
  let queue: Promise<void> = Promise.resolve();
  let opened = false;
  // Wakes the taker waiting for its token when the bucket is opened.
  let wake: AbortController | undefined;

  /**
   * `waited`: a taker that waited for its token is owed what accrued while its timer fired late,
   * on top of the capacity. With a capacity of one token (paced at 9.8/s, 50 ms of burst) each
   * wake-up ~5 ms late was lost, and the pace ran at 9.4/s (B10, R 10).
   */
  function refill(waited = false): void {
    const current = now();
    tokens = Math.min(waited ? capacity + 1 : capacity, tokens + ((current - updatedAt) * rate) / 1000);
    updatedAt = current;
  }

  /** Waits `ms` (or until the caller aborts: it throws); false when the bucket was opened meanwhile. */
  async function waitUnlessOpened(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    const current = new AbortController();
    wake = current;
    const forward = () => current.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      await wait(ms, current.signal);
      return true;
    } catch (error) {
      signal?.throwIfAborted();
      if (opened) return false;
      throw error;
    } finally {
      signal?.removeEventListener('abort', forward);
      wake = undefined;
    }
  }

  return {
    take(signal) {
      const turn = queue.then(async () => {
        signal?.throwIfAborted();
        if (opened) return;
        refill();
        if (tokens < 1) {
          if (!(await waitUnlessOpened(((1 - tokens) * 1000) / rate, signal))) return;
          refill(true);
        }
        tokens -= 1;
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    setRate(next) {
      refill();
      rate = next;
      capacity = Math.max(1, rate * burstSeconds);
      tokens = Math.min(tokens, capacity);
    },
    drain() {
      refill();
      tokens = Math.min(tokens, 0);
    },
    open() {
      opened = true;
      wake?.abort();
    },
    get rate() {
      return rate;
    },
  };
}
