import type { RateLimiter, RateLimitSettings } from './rate-limit.js';

/** How the simulator tells its rate limit in its answers (`simulate --rate-limit-headers`). */
export const RATE_LIMIT_HEADER_STYLES = ['ietf', 'x'] as const;
export type RateLimitHeaderStyle = (typeof RATE_LIMIT_HEADER_STYLES)[number];

/**
 * The bucket as a quota per window, after the request took its token (or was refused):
 * - `ietf`: the IETF draft's `RateLimit-Policy: "bucket";q=R;w=1` and `RateLimit: "bucket";r=left;t=seconds`;
 * - `x`: the common `X-RateLimit-Limit: R` (a second's worth), `-Remaining`, `-Reset` (seconds).
 * The seconds are those until the bucket is full again, rounded up to a whole one at least.
 */
export function rateLimitHeaders(
  style: RateLimitHeaderStyle,
  settings: RateLimitSettings,
  limiter: RateLimiter,
  key: string,
  nowMs: number,
): Record<string, string> {
  const { remaining, fullInMs } = limiter.peek(key, nowMs);
  const seconds = String(Math.max(1, Math.ceil(fullInMs / 1000)));
  // The draft's quota is a whole number: a limit under one a second is told per minute.
  const [quota, window] = Number.isInteger(settings.ratePerSecond) ? [settings.ratePerSecond, 1] : [Math.round(settings.ratePerSecond * 60), 60];
  if (style === 'ietf') return { 'RateLimit-Policy': `"bucket";q=${quota};w=${window}`, RateLimit: `"bucket";r=${remaining};t=${seconds}` };
  return { 'X-RateLimit-Limit': String(quota), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': seconds };
}
