import { describe, expect, it } from 'vitest';
import { Throttle, type ThrottleSlot } from '../../src/api/index.js';
import { RATE_RULES } from '../../src/api/rate-learner.js';
import { createTokenBucket } from '../../src/api/token-bucket.js';
import { VirtualClock } from '../../bench/virtual-rate-limit.js';
import { delay, sendJson, serverPerTest, singleDocument, testClient } from './helpers.js';

const serve = serverPerTest();

describe('concurrency', () => {
  it('never has more requests in flight at the server than configured', async () => {
    const api = await serve((_req, res) => {
      setTimeout(() => sendJson(res, 200, singleDocument()), 30);
    });
    const client = testClient(api.url, { concurrency: 3 });
    // Enough requests for the limit to grow from its start (2) to the configured cap.
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.getDocument(`/x/${i}/`)));
    expect(api.requests).toHaveLength(40);
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

/** A clock the test moves; sleeps advance it at once. */
function fakeClock() {
  let at = 0;
  return {
    now: () => at,
    sleep: async (ms: number) => {
      at += ms;
    },
    advance: (ms: number) => {
      at += ms;
    },
  };
}

describe('adaptive limit', () => {
  it('grows above the old fixed 8 in flight while the latency is flat and nothing is refused', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    // Two in flight at first: one round trip tells the latency.
    expect(throttle.concurrency).toBe(2);
    // 400 requests of 20 ms each, all wanted at once: demand waits behind the limit.
    await Promise.all(
      Array.from({ length: 400 }, () =>
        throttle.run(async (slot) => {
          await Promise.resolve();
          clock.advance(20 / Math.max(1, throttle.active));
          slot.succeeded();
        }),
      ),
    );
    expect(throttle.concurrency).toBeGreaterThan(8);
    expect(throttle.concurrency).toBeLessThanOrEqual(64);
    expect(throttle.learnedRate).toBeUndefined();
  });

  it('an explicit api.concurrency stays the cap', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 5, now: clock.now, sleep: clock.sleep });
    await Promise.all(Array.from({ length: 100 }, () => throttle.run(async (slot) => slot.succeeded())));
    expect(throttle.concurrency).toBe(5);
  });

  it('lowers the rate once per wave of 429s, and again for a request sent after the decrease', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 40; i++) {
      await Promise.all(
        [1, 2, 3, 4].map(() =>
          throttle.run(async (slot) => {
            clock.advance(5);
            slot.succeeded();
          }),
        ),
      );
    }
    /** A wave sent faster than the limit lets through: the last ones waited behind it. */
    async function wave(): Promise<ThrottleSlot[]> {
      const slots: ThrottleSlot[] = [];
      await Promise.all(Array.from({ length: throttle.concurrency + 3 }, () => throttle.run(async (slot) => void slots.push(slot))));
      return slots;
    }
    const first = await wave();
    first.at(-1)!.throttled();
    const lowered = throttle.learnedRate;
    expect(lowered).toBeDefined();
    // The rest of the same wave says nothing new.
    for (const slot of first.slice(0, -1)) slot.throttled();
    expect(throttle.learnedRate).toBe(lowered);
    clock.advance(1_000);
    const second = await wave();
    second.at(-1)!.throttled();
    expect(throttle.learnedRate).toBeLessThan(lowered!);
  });

  it('a 429 to a request sent without waiting does not pace the client (it waits its own Retry-After)', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    // One request at a time, as at the tail of a run: each refused, a second apart.
    for (let i = 0; i < 5; i++) {
      await throttle.run(async (slot) => {
        clock.advance(20);
        slot.throttled();
      });
      clock.advance(1_000);
    }
    expect(throttle.learnedRate).toBeUndefined();
  });

  it('undoes a decrease that lowered what the API accepts with the pace (429s at a share whatever the rate)', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 8, now: clock.now, sleep: clock.sleep });
    let lowered = false;
    let sent = 0;
    // 3 in 10 requests refused whatever the pace, all wanted at once.
    await Promise.all(
      Array.from({ length: 3_000 }, () =>
        throttle.run(async (slot) => {
          const n = sent++;
          clock.advance(20 / Math.max(1, throttle.active));
          if (n % 10 < 3) {
            slot.throttled();
            lowered ||= throttle.learnedRate !== undefined;
          } else slot.succeeded();
        }),
      ),
    );
    expect(lowered).toBe(true);
    expect(throttle.learnedRate).toBeUndefined();
    expect(throttle.concurrency).toBe(8);
  });

  it('a ramp refused with nothing accepted over its last round trip reads no limit of 0/s', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    // One answer accepted in 200 ms; 300 ms later three requests at once (two in flight, one
    // waiting), all refused: nothing was accepted over the last round trip.
    await throttle.run(async (slot) => {
      clock.advance(200);
      slot.succeeded();
    });
    clock.advance(300);
    const refuse = (slot: ThrottleSlot) => {
      clock.advance(200);
      slot.throttled();
      return Promise.resolve();
    };
    await Promise.all([throttle.run(refuse), throttle.run(refuse), throttle.run(refuse)]);
    // Half the ramp's rate (2 in flight per 200 ms), not the floor of 0.5/s a reading of 0 set.
    expect(throttle.learnedRate).toBeGreaterThan(1);
  });
});

describe('a remembered rate limit', () => {
  it('starts paced under it, and keeps it when the pace is released', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    throttle.remember(10);
    expect(throttle.learnedRate).toBeCloseTo(RATE_RULES.cut * 10);
    expect(throttle.limitFound).toBe(10);
    expect(throttle.concurrency).toBe(64);
    // One request at a time, far under the pace: released, the limit still known for the next run.
    for (let i = 0; i < 20; i++) {
      await throttle.run(async (slot) => {
        clock.advance(20);
        slot.succeeded();
      });
      clock.advance(1_000);
    }
    expect(throttle.learnedRate).toBeUndefined();
    expect(throttle.limitFound).toBe(10);
  });

  it('is ignored once this run has met a 429, and when it is no rate', async () => {
    const clock = fakeClock();
    const throttle = new Throttle({ concurrency: 64, now: clock.now, sleep: clock.sleep });
    throttle.remember(0);
    throttle.remember(Number.NaN);
    expect(throttle.learnedRate).toBeUndefined();
    await throttle.run(async (slot) => {
      clock.advance(20);
      slot.throttled();
    });
    throttle.remember(10);
    expect(throttle.learnedRate).toBeUndefined();
    expect(throttle.limitFound).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it('a refused request is not sent again before its Retry-After expires (server-side timestamps)', async () => {
    const refusedAt = new Map<string, number>();
    const api = await serve((req, res) => {
      const url = req.url ?? '';
      // Every URL is refused once, with Retry-After: 1.
      if (!refusedAt.has(url)) {
        refusedAt.set(url, performance.now());
        sendJson(res, 429, { errors: [] }, { 'retry-after': '1' });
      } else sendJson(res, 200, singleDocument());
    });
    const client = testClient(api.url, { concurrency: 8 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.getDocument(`/x/${i}/`)));
    expect(api.requests).toHaveLength(12);
    expect(client.stats.throttled).toBe(6);
    for (const [url, at] of refusedAt) {
      const again = api.requests.filter((r) => r.url === url).slice(1);
      expect(again).toHaveLength(1);
      expect(again[0]!.at - at).toBeGreaterThanOrEqual(1_000);
    }
    await client.close();
  });

  it('429s do not fail a request while retries remain', async () => {
    const api = await serve((_req, res, index) => {
      if (index < 3) sendJson(res, 429, { errors: [] }, { 'retry-after': '0' });
      else sendJson(res, 200, singleDocument());
    });
    const client = testClient(api.url, { concurrency: 1, maxRetries: 3 });
    await client.getDocument('/x/');
    expect(client.stats.throttled).toBe(3);
    expect(client.stats.failures).toBe(0);
    await client.close();
  });
});

describe('requests per second', () => {
  it('spaces requests beyond the one-second burst', async () => {
    // Virtual time: what it asserts holds however loaded the machine is.
    const clock = new VirtualClock();
    const bucket = createTokenBucket(20, { now: clock.now, sleep: clock.sleep });
    const left: number[] = [];
    const takers = Array.from({ length: 30 }, () => bucket.take().then(() => left.push(clock.now())));
    await clock.run(() => left.length === 30);
    await Promise.all(takers);
    // 20 at once, then 10 more at 50 ms intervals.
    expect(left.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 0));
    expect(left.slice(20).map((at) => Math.round(at))).toEqual(Array.from({ length: 10 }, (_, i) => 50 * (i + 1)));
  });

  it('keeps its pace when the timers fire late (one token of capacity)', async () => {
    // Virtual time: every wait ends 5 ms late, as a busy event loop's timers do. Paced at 9.8/s
    // with 50 ms of burst (one token), the lateness was lost at each wait: 200 requests took
    // 200 x 107 ms = 21.4 s (9.35/s).
    let now = 0;
    const bucket = createTokenBucket(9.8, {
      burstSeconds: 0.05,
      initialTokens: 0,
      now: () => now,
      sleep: async (ms) => {
        now += ms + 5;
      },
    });
    for (let i = 0; i < 200; i++) await bucket.take();
    expect(now).toBeLessThanOrEqual((200 / 9.8) * 1000 + 10);
    // And no faster than the pace: the lateness is made up, never more.
    expect(now).toBeGreaterThanOrEqual((199 / 9.8) * 1000);
  });

  it('lets every queued taker through once the rate is raised, the one waiting for its token within a second', async () => {
    // Virtual time: the takers queued behind a pace of 1/s would leave one a second.
    const clock = new VirtualClock();
    const bucket = createTokenBucket(1, { burstSeconds: 0.05, initialTokens: 0, now: clock.now, sleep: clock.sleep });
    const left: number[] = [];
    const takers = Array.from({ length: 10 }, () => bucket.take().then(() => left.push(clock.now())));
    void clock.sleep(1_500).then(() => bucket.setRate(1e6));
    await clock.run(() => left.length === 10);
    await Promise.all(takers);
    // One token at 1 s, then the rest when the one waiting wakes at 2 s (not one a second until 10 s).
    expect(left).toEqual([1_000, ...Array.from({ length: 9 }, () => 2_000)]);
  });

  it('a taker waiting for its token that is aborted fails with the reason, and the next one is served', async () => {
    const clock = new VirtualClock();
    const bucket = createTokenBucket(1, { burstSeconds: 0.05, initialTokens: 0, now: clock.now, sleep: clock.sleep });
    const controller = new AbortController();
    const aborted = bucket.take(controller.signal);
    const next = bucket.take();
    void clock.sleep(300).then(() => controller.abort(new Error('stopped')));
    let served = false;
    void next.then(() => {
      served = true;
    });
    await expect(Promise.all([aborted.catch((error: Error) => error.message), clock.run(() => served)])).resolves.toEqual(['stopped', undefined]);
    // The aborted taker took no token: the next one left at the first token, at 1 s.
    expect(clock.now()).toBe(1_000);
  });

  it('applies to the client', async () => {
    const api = await serve((_req, res) => sendJson(res, 200, singleDocument()));
    const client = testClient(api.url, { maxRequestsPerSecond: 10 });
    await Promise.all(Array.from({ length: 25 }, (_, i) => client.getDocument(`/x/${i}/`)));
    // The burst (10, and one token more a late timer may take) spent, one request per 100 ms: the
    // last ten intervals take 900 ms at least. (From the first request, its new connection's
    // setup shortened the span the server sees.) Load makes it longer, never shorter.
    expect(api.requests.at(-1)!.at - api.requests[14]!.at).toBeGreaterThanOrEqual(800);
    await client.close();
  });
});
