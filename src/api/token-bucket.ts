import { setTimeout as sleep } from 'node:timers/promises';

/** `burstSeconds`: seconds of tokens it holds (default 1); `initialTokens`: at the start (default: full). */
export interface TokenBucketOptions {
  readonly burstSeconds?: number;
  readonly initialTokens?: number;
  readonly now?: () => number;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/**
 * A requests-per-second budget shared by every worker: up to `burstSeconds` of tokens (one at
 * least), refilled continuously. Takers leave one at a time, each after the wait the rate in
 * force asks for then: a rate changed after a 429 applies to every request still waiting.
 */
export type TokenBucket = ReturnType<typeof createTokenBucket>;

export function createTokenBucket(ratePerSecond: number, options: TokenBucketOptions = {}) {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const burstSeconds = options.burstSeconds ?? 1;
  let rate = ratePerSecond;
  let capacity = Math.max(1, rate * burstSeconds);
  let tokens = Math.min(capacity, options.initialTokens ?? capacity);
  let updatedAt = now();
  let queue: Promise<void> = Promise.resolve();

  /** `late`: a taker that slept is owed what accrued while its timer fired late (at 9.8/s, 5-ms-late timers made 9.35/s). */
  function refill(late = false): void {
    tokens = Math.min(late ? capacity + 1 : capacity, tokens + ((now() - updatedAt) * rate) / 1000);
    updatedAt = now();
  }

  return {
    take(signal?: AbortSignal): Promise<void> {
      const turn = queue.then(async () => {
        signal?.throwIfAborted();
        refill();
        // A millionth of a token short is enough: float rounding must not make it wait forever.
        while (tokens < 1 - 1e-6) {
          await wait(Math.min(((1 - tokens) * 1000) / rate, 1_000), signal);
          refill(true);
        }
        tokens -= 1;
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    /** Changes the rate from now on; `drain`: spends the tokens saved up (the next taker waits a whole interval). */
    setRate(next: number, drain = false): void {
      refill();
      rate = next;
      capacity = Math.max(1, rate * burstSeconds);
      tokens = Math.min(tokens, drain ? 0 : capacity);
    },
    get rate(): number {
      return rate;
    },
  };
}
