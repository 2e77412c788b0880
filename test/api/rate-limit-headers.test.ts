import { describe, expect, it } from 'vitest';
import { runAgainstRateLimit } from '../../bench/virtual-rate-limit.js';
import { readRateLimitHeaders } from '../../src/api/rate-limit-headers.js';

describe('rate-limit headers', () => {
  it('reads the IETF draft: the lowest quota over window of the policies', () => {
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"default";q=100;w=10', ratelimit: '"default";r=50;t=30' })).toBe(10);
    // Several policies, in the older form without a name and in any case.
    expect(readRateLimitHeaders({ 'RateLimit-Policy': '10;w=1, 300;w=60' })).toBe(5);
  });

  it('reads X-RateLimit-*: a quota over the seconds to its reset, a reset in epoch seconds', () => {
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' })).toBe(20);
    const now = 1_700_000_000_000;
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': '600', 'x-ratelimit-reset': String(now / 1000 + 60) }, now)).toBe(10);
  });

  it('says nothing of an answer without them, or with values that are no numbers', () => {
    expect(readRateLimitHeaders({ 'content-type': 'application/json' })).toBeUndefined();
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-3' })).toBeUndefined();
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"p";q=0;w=1' })).toBeUndefined();
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"p";q=5;w=0' })).toBeUndefined();
  });

  it('are used instead of learning: told its limit, the client is refused almost never (virtual time)', async () => {
    for (const headers of ['ietf', 'x'] as const) {
      const told = await runAgainstRateLimit({ rate: 50, latencyMs: 20, requests: 50 * 60, headers });
      const learned = await runAgainstRateLimit({ rate: 50, latencyMs: 20, requests: 50 * 60 });
      expect(told.refused, headers).toBeLessThan(learned.refused / 4);
      expect(told.throttle.limitFound, headers).toBe(50);
      expect(told.accepted / (told.elapsedMs / 1000), headers).toBeGreaterThanOrEqual(0.95 * 50);
    }
  });
});
