import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimiter, defaultBurst } from '../../src/simulator/http/rate-limit.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { TODAY, get } from './helpers.js';

const started: Simulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

describe('simulator rate limit', () => {
  it('lets the burst through, then refuses until a token is earned, per bearer token', () => {
    const limiter = createRateLimiter({ ratePerSecond: 10, burst: 3 });
    expect([0, 0, 0].map((at) => limiter.take('Bearer a', at))).toEqual([0, 0, 0]);
    // Empty: the next token comes in 1/10 s.
    expect(limiter.take('Bearer a', 0)).toBeCloseTo(100);
    // A refused request takes no token: 50 ms later, half a token is still missing.
    expect(limiter.take('Bearer a', 50)).toBeCloseTo(50);
    expect(limiter.take('Bearer a', 100)).toBe(0);
    // Another token has a bucket of its own.
    expect(limiter.take('Bearer b', 100)).toBe(0);
    expect(defaultBurst(200)).toBe(40);
    expect(defaultBurst(2)).toBe(1);
  });

  it('answers 429 with Retry-After in whole seconds beyond N requests/s', async () => {
    // 0.2 requests/s: no token is earned while the test runs, so the counts are exact.
    const sim = await startSimulator({ seed: 9, venues: 2, days: 10, today: TODAY, rateLimit: 0.2, rateLimitBurst: 3 });
    started.push(sim);
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(sim, '/accounts/filtered-accounts/me/')));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      const retryAfter = answer.headers.get('retry-after') ?? '';
      expect(retryAfter).toMatch(/^\d+$/);
      // The wait for the next token (5 s at 0.2/s), rounded up to whole seconds.
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(5);
    }
    expect(sim.requests.filter((r) => r.status === 429).every((r) => r.fault === 'rate-limit')).toBe(true);
  });

  it('refuses a burst setting without a rate', async () => {
    await expect(startSimulator({ rateLimitBurst: 3 })).rejects.toThrow(/rateLimitBurst needs rateLimit/);
    await expect(startSimulator({ rateLimitHeaders: 'ietf' })).rejects.toThrow(/rateLimitHeaders needs rateLimit/);
  });

  it('tells its limit in every answer on request: the IETF draft fields or X-RateLimit-*', async () => {
    const ietf = await startSimulator({ seed: 9, venues: 2, days: 10, today: TODAY, rateLimit: 0.2, rateLimitBurst: 2, rateLimitHeaders: 'ietf' });
    started.push(ietf);
    const answers = await Promise.all(Array.from({ length: 3 }, () => get(ietf, '/accounts/filtered-accounts/me/')));
    // 0.2/s is a quota of 12 a minute; 2, then 1, then none left, whole again in 10 s or less.
    expect(answers.map((a) => a.headers.get('ratelimit-policy'))).toEqual(Array.from({ length: 3 }, () => '"bucket";q=12;w=60'));
    expect(answers.map((a) => a.headers.get('ratelimit')?.replace(/t=\d+/, 't'))).toEqual(['"bucket";r=1;t', '"bucket";r=0;t', '"bucket";r=0;t']);
    const x = await startSimulator({ seed: 9, venues: 2, days: 10, today: TODAY, rateLimit: 5, rateLimitHeaders: 'x' });
    started.push(x);
    const answer = await get(x, '/accounts/filtered-accounts/me/');
    expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    const quiet = await startSimulator({ seed: 9, venues: 2, days: 10, today: TODAY, rateLimit: 5 });
    started.push(quiet);
    expect((await get(quiet, '/accounts/filtered-accounts/me/')).headers.get('x-ratelimit-limit')).toBeNull();
  });
});
