/**
 * The API's rate limit as the simulator plays it: one token bucket per bearer token, refilled at
 * `ratePerSecond`, holding at most `burst` requests. A request that finds it empty is refused
 * (429 with Retry-After) and takes no token. The real API does not document its limit
 * (docs/api-assumptions.md); this is the common shape of one.
 */
export interface RateLimiter {
  /** Takes a token for `key` at `nowMs`: 0 when the request may pass, else the milliseconds until one is available. */
  take(key: string, nowMs: number): number;
  /** What `key`'s bucket holds at `nowMs`: whole requests left, and milliseconds until it is full. */
  peek(key: string, nowMs: number): { readonly remaining: number; readonly fullInMs: number };
}

export interface RateLimitSettings {
  readonly ratePerSecond: number;
  readonly burst: number;
}

/** A small burst (a fifth of a second's worth, at least 1): bursts of the client are refused, pacing just under the rate is not. */
export function defaultBurst(ratePerSecond: number): number {
  return Math.max(1, Math.ceil(ratePerSecond / 5));
}

export function createRateLimiter(settings: RateLimitSettings): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  function refilled(key: string, nowMs: number): { tokens: number; at: number } {
    const bucket = buckets.get(key) ?? { tokens: settings.burst, at: nowMs };
    bucket.tokens = Math.min(settings.burst, bucket.tokens + ((nowMs - bucket.at) * settings.ratePerSecond) / 1000);
    bucket.at = nowMs;
    buckets.set(key, bucket);
    return bucket;
  }
  return {
    peek(key, nowMs) {
      const { tokens } = refilled(key, nowMs);
      return { remaining: Math.floor(tokens), fullInMs: ((settings.burst - tokens) * 1000) / settings.ratePerSecond };
    },
    take(key, nowMs) {
      const bucket = refilled(key, nowMs);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return ((1 - bucket.tokens) * 1000) / settings.ratePerSecond;
    },
  };
}
