import { setTimeout as sleep } from 'node:timers/promises';

/** A requests-per-second budget shared by every worker. */
export interface TokenBucket {
  /** Resolves when the caller may send one request. */
  take(signal?: AbortSignal): Promise<void>;
  /** Changes the rate from now on (tokens earned so far are kept, up to the new capacity). */
  setRate(ratePerSecond: number): void;
  /** Spends the tokens earned so far: the next taker waits a whole interval at the rate in force. */
  drain(): void;
  readonly rate: number;
}

export interface TokenBucketOptions {
  /** Seconds of tokens the bucket holds (the burst). Default 1. */
  readonly burstSeconds?: number;
  /** Tokens at the start (default: full). */
  readonly initialTokens?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Up to `burstSeconds` of tokens (one at least), refilled continuously. Takers queue and leave one
 * at a time, each after the wait the rate in force asks for then: a rate lowered after a 429
 * applies to every request still waiting.
 */
export function createTokenBucket(ratePerSecond: number, options: TokenBucketOptions = {}): TokenBucket {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const burstSeconds = options.burstSeconds ?? 1;
  let rate = ratePerSecond;
  let capacity = Math.max(1, rate * burstSeconds);
  let tokens = Math.min(capacity, options.initialTokens ?? capacity);
  let updatedAt = now();
  let queue: Promise<void> = Promise.resolve();

  /**
   * `late`: a taker that slept is owed what accrued while its timer fired late, over the capacity.
   * With one token of capacity, timers ~5 ms late lost that much at every request (9.4/s paced at 9.8/s).
   */
  function refill(late = false): void {
    const at = now();
    tokens = Math.min(late ? capacity + 1 : capacity, tokens + ((at - updatedAt) * rate) / 1000);
    updatedAt = at;
  }

  return {
    take(signal) {
      const turn = queue.then(async () => {
        signal?.throwIfAborted();
        refill();
        // Again after each wait: a rate lowered or tokens drained meanwhile (a 429) hold this taker too.
        // (A millionth of a token short is enough: float rounding must not make it wait forever.)
        while (tokens < 1 - 1e-6) {
          await wait(((1 - tokens) * 1000) / rate, signal);
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
    get rate() {
      return rate;
    },
  };
}
