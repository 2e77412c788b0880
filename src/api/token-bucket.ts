import { setTimeout as sleep } from 'node:timers/promises';

/** A requests-per-second budget shared by every worker. */
export interface TokenBucket {
  /** Resolves when the caller may send one request. */
  take(signal?: AbortSignal): Promise<void>;
}

/**
 * Burst of up to one second's worth of tokens, refilled continuously. A taker that finds the
 * bucket empty reserves its token by driving the balance negative, so concurrent takers are
 * spaced 1/rate apart instead of all waking at the same instant.
 */
export function createTokenBucket(ratePerSecond: number, now: () => number = performance.now.bind(performance)): TokenBucket {
  const capacity = Math.max(1, ratePerSecond);
  let tokens = capacity;
  let updatedAt = now();

  return {
    async take(signal) {
      const current = now();
      tokens = Math.min(capacity, tokens + ((current - updatedAt) * ratePerSecond) / 1000);
      updatedAt = current;
      tokens -= 1;
      if (tokens >= 0) return;
      await sleep((-tokens * 1000) / ratePerSecond, undefined, signal ? { signal } : undefined);
    },
  };
}
