import { describe, expect, it } from 'vitest';
import { RefillBounds } from '../../src/api/refill-bounds.js';
import { createRateLimiter } from '../../src/simulator/http/rate-limit.js';

/**
 * Sends at `perSecond` from `fromMs` to `toMs` into the simulator's bucket, recording each answer;
 * requests are answered in the order they were sent, so once one is, every one sent before it is.
 */
function send(bounds: RefillBounds, bucket: ReturnType<typeof createRateLimiter>, perSecond: number, fromMs: number, toMs: number): number {
  let refusedAt = Number.NaN;
  for (let at = fromMs; at < toMs; at += 1000 / perSecond) {
    if (bucket.take('token', at) === 0) bounds.accepted(at);
    else {
      if (!bounds.recording) bounds.start(at);
      bounds.refused(at);
      refusedAt = at;
    }
    bounds.settled(at);
  }
  bounds.settled(Number.POSITIVE_INFINITY);
  return refusedAt;
}

describe('bounds on a token bucket refill', () => {
  it('close in on the rate from both sides while the client sends above it', () => {
    const bucket = createRateLimiter({ ratePerSecond: 10, burst: 2 });
    const bounds = new RefillBounds();
    send(bounds, bucket, 13, 0, 4_000);
    expect(bounds.lower).toBeGreaterThan(9);
    expect(bounds.lower).toBeLessThan(10);
    expect(bounds.upper).toBeGreaterThan(10);
    expect(bounds.upper).toBeLessThan(11);
  });

  it('know nothing before a refusal, and nothing from accepted requests alone', () => {
    const bucket = createRateLimiter({ ratePerSecond: 10, burst: 2 });
    const bounds = new RefillBounds();
    send(bounds, bucket, 8, 0, 3_000);
    expect(bounds.recording).toBe(false);
    expect(bounds.lower).toBe(0);
    expect(bounds.upper).toBe(Number.POSITIVE_INFINITY);
  });

  it('keep the lower bound under the rate when the bucket filled to its brim in between', () => {
    const bucket = createRateLimiter({ ratePerSecond: 50, burst: 10 });
    const bounds = new RefillBounds();
    send(bounds, bucket, 80, 0, 1_000);
    // Two seconds at half the rate: the bucket fills, and the tokens past its brim are lost.
    send(bounds, bucket, 25, 1_000, 3_000);
    send(bounds, bucket, 80, 3_000, 4_000);
    // Under the rate, and informative (the acceptances sent within 200 ms after each refusal are
    // not counted, so it reads low over spans of a second).
    expect(bounds.lower).toBeGreaterThan(25);
    expect(bounds.lower).toBeLessThan(50);
    // The upper bound may read low here (it is dropped when a lower bound passes it), never high.
    expect(bounds.upper).toBeGreaterThan(bounds.lower);
  });

  it('reads no lower bound from requests sent close together (they may reach the API in another order)', () => {
    const bounds = new RefillBounds();
    bounds.start(0);
    bounds.refused(10);
    // A ramp's round trip sent 2 ms after the refusal: the API took them first, and refused it.
    for (let i = 0; i < 19; i++) bounds.accepted(12);
    expect(bounds.lower).toBe(0);
    // Far enough apart, the order holds: 4 accepted in the 0.5 s after it.
    for (const at of [200, 300, 400, 500]) bounds.accepted(at);
    expect(bounds.lower).toBeGreaterThan(0);
    expect(bounds.lower).toBeLessThan(50);
  });

  it('drops an upper bound that a later acceptance contradicts (the limit was raised)', () => {
    const bounds = new RefillBounds();
    const low = createRateLimiter({ ratePerSecond: 10, burst: 2 });
    send(bounds, low, 15, 0, 2_000);
    expect(bounds.upper).toBeLessThan(11);
    const raised = createRateLimiter({ ratePerSecond: 40, burst: 8 });
    send(bounds, raised, 30, 2_000, 4_000);
    expect(bounds.lower).toBeGreaterThan(11);
    expect(bounds.upper).toBe(Number.POSITIVE_INFINITY);
  });

  it('bounds the rate with the requests accepted just before the first refusal (the ramp that emptied the bucket)', () => {
    const bounds = new RefillBounds();
    // R 10, a burst of 2, 20 ms answers: two accepted at 0, refused at 20 and (paced) at 65.
    bounds.accepted(0);
    bounds.accepted(0);
    bounds.start(0);
    bounds.refused(20);
    bounds.refused(65);
    bounds.settled(Number.POSITIVE_INFINITY);
    // One token in 65 ms less the jitter allowed: under 18.2/s (the ramp's own reading was 40/s).
    expect(bounds.upper).toBeCloseTo(1000 / 55, 5);
  });

  it('bound the rate from a refusal only once the requests sent before it are answered (a tick answers in any order)', () => {
    const bounds = new RefillBounds();
    bounds.accepted(0);
    bounds.start(0);
    // Sent at 200 with four others; its 429 came back first.
    bounds.refused(200);
    bounds.settled(200);
    expect(bounds.upper).toBe(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 4; i++) bounds.accepted(200);
    bounds.settled(Number.POSITIVE_INFINITY);
    // Five accepted in the 200 ms (less the jitter allowed) from the one at 0: under 26.3/s. Read
    // before the other four answered, it said under 5.3/s.
    expect(bounds.upper).toBeCloseTo(5000 / 190, 5);
  });

  it('allow for an accepted request that may have reached the API late', () => {
    const bounds = new RefillBounds();
    // Answered 30 ms slower than the fastest answer: it may have taken its token at 30.
    bounds.accepted(0, 30);
    bounds.start(0);
    bounds.refused(100);
    bounds.settled(Number.POSITIVE_INFINITY);
    // One token in 100 ms less its lateness and the jitter: under 16.7/s, not 11.1/s.
    expect(bounds.upper).toBeCloseTo(1000 / 60, 5);
  });

  it('count the requests sent just after a refusal that reached the API late (a new connection) as accepted before it', () => {
    const bounds = new RefillBounds();
    bounds.accepted(0);
    bounds.start(0);
    // Sent at 100 but answered 30 ms slower than the fastest answer: it may have reached the API
    // at 130, after the three sent at 120.
    bounds.refused(100, 30);
    for (let i = 0; i < 3; i++) bounds.accepted(120);
    bounds.settled(Number.POSITIVE_INFINITY);
    // Four accepted over 100 ms less the jitter: under 44.4/s, not the 11.1/s of the one at 0 alone.
    expect(bounds.upper).toBeCloseTo(4000 / 90, 5);
  });

  it('starts over without the requests sent before its start', () => {
    const bounds = new RefillBounds();
    for (let at = 0; at <= 1_000; at += 125) bounds.accepted(at);
    bounds.start(5_000);
    bounds.refused(5_100);
    bounds.settled(Number.POSITIVE_INFINITY);
    // Paired with the requests of the first second, one refusal would bound the rate under 1/s.
    expect(bounds.upper).toBe(Number.POSITIVE_INFINITY);
    bounds.stop();
    expect(bounds.recording).toBe(false);
  });
});
