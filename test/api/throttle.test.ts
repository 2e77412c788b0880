import { describe, expect, it } from 'vitest';
import { createThrottle, type ThrottleSlot } from '../../src/api/index.js';
import { createTokenBucket } from '../../src/api/token-bucket.js';
import { delay, sendJson, serverPerTest, singleDocument, testClient } from './helpers.js';

const serve = serverPerTest();

describe('concurrency', () => {
  it('never has more requests in flight at the server than configured', async () => {
    const api = await serve((_req, res) => {
      setTimeout(() => sendJson(res, 200, singleDocument()), 30);
    });
    const client = testClient(api.url, { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getDocument(`/x/${i}/`)));
    expect(api.requests).toHaveLength(12);
    expect(api.maxInFlight).toBe(3);
    await client.close();
  });

  it('a retry waiting out its backoff holds no slot', async () => {
    const api = await serve((req, res) => {
      const first = req.url === '/a/' && api.requests.filter((r) => r.url === '/a/').length === 1;
      if (first) sendJson(res, 503, { errors: [] }, { 'retry-after': '1' });
      else sendJson(res, 200, singleDocument());
    });
    const client = testClient(api.url, { concurrency: 1 });
    const a = client.getDocument('/a/');
    await delay(50);
    await client.getDocument('/b/');
    await a;
    expect(api.requests.map((r) => r.url)).toEqual(['/a/', '/b/', '/a/']);
    await client.close();
  });
});

describe('AIMD', () => {
  it('halves once per wave of 429s, never below 1, and recovers by one per run of successes', async () => {
    const throttle = createThrottle({ concurrency: 8, recoverAfterSuccesses: 3 });
    const wave: ThrottleSlot[] = [];
    await Promise.all([1, 2, 3].map(() => throttle.run(async (slot) => void wave.push(slot))));
    // Three requests of the same wave answer 429: one halving, not three.
    for (const slot of wave) slot.throttled();
    expect(throttle.concurrency).toBe(4);
    // A request started after the decrease may lower it again.
    await throttle.run(async (slot) => slot.throttled());
    expect(throttle.concurrency).toBe(2);
    await throttle.run(async (slot) => slot.throttled());
    await throttle.run(async (slot) => slot.throttled());
    expect(throttle.concurrency).toBe(1);
    for (let i = 0; i < 3; i++) await throttle.run(async (slot) => slot.succeeded());
    expect(throttle.concurrency).toBe(2);
    for (let i = 0; i < 100; i++) await throttle.run(async (slot) => slot.succeeded());
    expect(throttle.concurrency).toBe(8);
  });

  it('the client lowers its concurrency on 429 and recovers to the configured value', async () => {
    const api = await serve((_req, res, index) => {
      if (index < 4) sendJson(res, 429, { errors: [] }, { 'retry-after': '0' });
      else setTimeout(() => sendJson(res, 200, singleDocument()), 5);
    });
    const client = testClient(api.url, { concurrency: 8, recoverAfterSuccesses: 2 });
    const first = Array.from({ length: 4 }, (_, i) => client.getDocument(`/x/${i}/`));
    await Promise.all(first);
    expect(client.stats.throttled).toBe(4);
    expect(client.stats.concurrency).toBeLessThan(8);
    await Promise.all(Array.from({ length: 30 }, (_, i) => client.getDocument(`/y/${i}/`)));
    expect(client.stats.concurrency).toBe(8);
    await client.close();
  });
});

describe('requests per second', () => {
  it('spaces requests beyond the one-second burst', async () => {
    const bucket = createTokenBucket(20);
    const started = performance.now();
    await Promise.all(Array.from({ length: 30 }, () => bucket.take()));
    const elapsed = performance.now() - started;
    // 20 at once, then 10 more at 50 ms intervals.
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('applies to the client', async () => {
    const api = await serve((_req, res) => sendJson(res, 200, singleDocument()));
    const client = testClient(api.url, { maxRequestsPerSecond: 10 });
    await Promise.all(Array.from({ length: 13 }, (_, i) => client.getDocument(`/x/${i}/`)));
    const span = api.requests.at(-1)!.at - api.requests[0]!.at;
    expect(span).toBeGreaterThanOrEqual(280);
    await client.close();
  });
});
