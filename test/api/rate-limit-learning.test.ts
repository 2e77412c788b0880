import { describe, expect, it } from 'vitest';
import { runAgainstRateLimit, type RateLimitedRun } from '../../bench/virtual-rate-limit.js';
import { RATE_RULES } from '../../src/api/rate-learner.js';

/** Accepted requests per virtual second that arrived in [fromMs, toMs). */
function acceptedRate(run: RateLimitedRun, fromMs: number, toMs: number): number {
  const refused = new Set(run.refusals);
  const arrived = run.arrivals.filter((at) => at >= fromMs && at < toMs && !refused.has(at)).length;
  return (arrived * 1000) / (toMs - fromMs);
}

describe('learning a rate limit (virtual time, the simulator token bucket)', () => {
  it('finds a low limit in a few refusals: one decrease per wave, not one per second', async () => {
    // R 10 with a burst of 2 and 20 ms answers: the ramp meets the limit 40 ms in, when the
    // accepted rate read 40/s (before the burst was counted). Decreased at most once a second,
    // the client sent at ~39/s for a second: 67 of 367 requests refused.
    const run = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 300 });
    expect(run.accepted).toBe(300);
    expect(run.refusals.filter((at) => at < 1_000).length).toBeLessThanOrEqual(8);
    expect(run.refused / (run.accepted + run.refused)).toBeLessThan(0.05);
    expect(run.accepted / (run.elapsedMs / 1000)).toBeGreaterThanOrEqual(0.95 * 10);
  });

  it('sends no more in the second round trip than in the first, which tells the latency', async () => {
    // R 10 with a burst of 2 and 20 ms answers: the two first requests take the burst, and the
    // API has refilled a fifth of a token when they are answered. Grown on those answers, the
    // ramp sent 3 at once there, all refused.
    const run = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 300 });
    expect(run.arrivals.filter((at) => at === 20)).toHaveLength(2);
    expect(run.refusals.filter((at) => at === 20)).toHaveLength(2);
  });

  it('keeps goodput at 0.95 R or more with 2 % refused at most over a nightly sync, R 10-200 and 20-200 ms', { timeout: 180_000 }, async () => {
    // A nightly sync of 1,000 venues makes ~23,400 requests; a request on a new connection
    // reaches the API 10 ms late. The learning at the start (a ramp reading 334/s at R 200 and
    // 200 ms, seven cuts down to the limit) is paid once; then a probe about every 10 s.
    for (const rate of [10, 50, 200]) {
      for (const latencyMs of [20, 200]) {
        const run = await runAgainstRateLimit({ rate, latencyMs, requests: 23_400, connectMs: 10 });
        const label = `R ${rate}, ${latencyMs} ms`;
        expect(run.accepted / (run.elapsedMs / 1000), label).toBeGreaterThanOrEqual(0.95 * rate);
        expect(run.refused / (run.accepted + run.refused), label).toBeLessThanOrEqual(0.02);
        expect(run.throttle.limitFound, label).toBeGreaterThan(0.95 * rate);
        expect(run.throttle.limitFound, label).toBeLessThan(1.15 * rate);
      }
    }
  });

  it('reads a refusal in the first round trips as the burst spent plus its refill, not as the rate', async () => {
    // R 10 (a burst of 2, 200 ms of the rate): the first round trip takes the burst, and the next
    // one is refused. Read as 2 accepted over 50 ms (40/s), the pace was halved down to the limit
    // and refused twice more in the first second; with the burst counted, 2 over 220 ms (9/s).
    for (const latencyMs of [20, 50]) {
      const run = await runAgainstRateLimit({ rate: 10, latencyMs, requests: 300 });
      expect(run.decreases[0]!.rate, `${latencyMs} ms`).toBeLessThanOrEqual(10);
    }
    // Refused after the first reading window, the ramp's reading stands: counted from the run's
    // start, the ramp's slow start at 200 ms (1.4 s to reach the limit) read 44/s at R 200.
    const late = await runAgainstRateLimit({ rate: 200, latencyMs: 200, requests: 200 * 10 });
    expect(late.decreases[0]!.at).toBeGreaterThan(1_000);
    expect(late.decreases[0]!.rate).toBeGreaterThanOrEqual(0.95 * RATE_RULES.cut * 200);
  });

  it('learns the limit when requests that open a connection reach the API late', async () => {
    // A request sent on a new connection reaches the API after requests sent later, and the 429s
    // of one round trip come back before some of its acceptances. Bounded from send times alone,
    // as answered, the second decrease read 19/s and 23/s at R 50 (200 ms, connections 10 and 20
    // ms late: 0.83 and 0.86 R) and 30/s at R 200 (20 ms, 40 ms late: 0.74 R). The ramp's
    // overshoot still costs more refusals than with no connection to open (35 of 1,535 at R 50
    // and 10 ms, 19 without).
    for (const [rate, latencyMs, connectMs] of [
      [50, 200, 10],
      [50, 200, 20],
      [200, 20, 40],
    ] as const) {
      const run = await runAgainstRateLimit({ rate, latencyMs, requests: rate * 30, connectMs });
      const label = `R ${rate}, ${latencyMs} ms, connections ${connectMs} ms late`;
      expect(run.decreases[1]!.rate, label).toBeGreaterThanOrEqual(0.85 * rate);
      expect(run.accepted / (run.elapsedMs / 1000), label).toBeGreaterThanOrEqual(0.95 * rate);
    }
  });

  it('lowers a level read over the limit when a probe is refused and the API accepted less than the rate held', async () => {
    // R 10 and 20 ms: the episodes read 10.35/s. The probe refused 6.6 s in read 10.2/s since the
    // last refusal, taken for the same level (a lower bound: the API's bucket may fill while the
    // rate holds under the limit), so the rate went back to 10.25/s, over the limit, and was
    // refused again 4 s later. Held at 10.25/s, over what the API accepted, its bucket never
    // filled: that reading is the limit.
    const run = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 10 * 30 });
    const later = run.decreases.filter((d) => d.at >= 5_000);
    expect(later.length).toBeGreaterThanOrEqual(1);
    for (const decrease of later) expect(decrease.rate).toBeLessThan(10);
  });

  it('does not halve the rate for a refusal in the wave after it went under the level known', async () => {
    // R 20 and 200 ms: a refused probe set 19.4/s; the next request, sent as it did, found the
    // API's bucket still emptied by the probe and was refused: taken as the limit still unknown,
    // the rate was halved to 9.7/s.
    const run = await runAgainstRateLimit({ rate: 20, latencyMs: 200, requests: 20 * 30 });
    const later = run.decreases.filter((d) => d.at >= 3_000);
    expect(later.length).toBeGreaterThanOrEqual(1);
    for (const decrease of later) expect(decrease.rate).toBeGreaterThan(0.8 * 20);
  });

  it('still finds a raised limit', async () => {
    const run = await runAgainstRateLimit({ rate: 50, latencyMs: 20, requests: 50 * 20 + 100 * 40, rateFrom: { at: 20_000, rate: 100 } });
    expect(acceptedRate(run, 40_000, run.elapsedMs)).toBeGreaterThanOrEqual(0.9 * 100);
  });

  it('follows a lowered limit at once', async () => {
    const run = await runAgainstRateLimit({ rate: 100, latencyMs: 20, requests: 100 * 20 + 50 * 20, rateFrom: { at: 20_000, rate: 50 } });
    const after = run.refusals.filter((at) => at >= 20_000);
    expect(after.filter((at) => at >= 23_000).length).toBeLessThanOrEqual(4);
    expect(acceptedRate(run, 23_000, run.elapsedMs)).toBeGreaterThanOrEqual(0.9 * 50);
  });

  it('follows a limit halved mid-run without dropping its pace: the requests waiting in it are not held back', async () => {
    // R 20 halved to 10 at 15 s, 50 ms answers. A pace dropped (judged not to follow the 429s)
    // kept the requests already waiting in it at the old pace: each refused in a wave of its own,
    // the rate was halved down to 0.5/s, twice for ~30 s: the 45 s of work took 125 s.
    const run = await runAgainstRateLimit({ rate: 20, latencyMs: 50, requests: 20 * 15 + 10 * 30, rateFrom: { at: 15_000, rate: 10 } });
    expect(run.elapsedMs).toBeLessThan(1.2 * 45_000);
    expect(acceptedRate(run, 20_000, run.elapsedMs)).toBeGreaterThanOrEqual(0.9 * 10);
  });

  it('does not take the descent to a limit lowered soon after a probe for 429s that do not follow the pace', async () => {
    // The pace had held under the level with none refused, then a probe was refused, and the limit
    // was halved within the two seconds its decrease is judged over: the refusals of the descent
    // reached 15 % of the last second, the pace was dropped and the requests waiting went at once
    // (R 10 to 5 at 20 ms: 86 and 82 refused, halved at 18 s and 19 s; R 100 to 50 at 13 s: 147).
    for (const at of [18_000, 19_000]) {
      const run = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 300, rateFrom: { at, rate: 5 } });
      expect(run.refused, `halved at ${at} ms`).toBeLessThanOrEqual(30);
    }
    const fast = await runAgainstRateLimit({ rate: 100, latencyMs: 20, requests: 3_000, rateFrom: { at: 13_000, rate: 50 } });
    expect(fast.refused).toBeLessThanOrEqual(100);
  });

  it('does not take one 429 at a low pace for 429s that do not follow it', async () => {
    // R 10 halved to 5 at 15 s (a burst of one request), 20 ms answers. One refusal in the last
    // second is 22 % at 3.5/s: the pace was dropped every 2-3 s, and each time the requests
    // waiting went at once (939 refused in all), or trickled out at the old pace (112 refused,
    // the pace halved down to 0.5/s: 83 s).
    const run = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 10 * 15 + 5 * 30, rateFrom: { at: 15_000, rate: 5 } });
    expect(run.refused).toBeLessThanOrEqual(40);
    expect(run.elapsedMs).toBeLessThan(1.25 * 45_000);
  });

  it('does not hold 30 % random 429s at a pace of a few requests a second, where a second holds too few answers to judge', async () => {
    // No limit in reach, 3 of 10 requests refused at random, 200 ms answers, 64 in flight: 10.6 s
    // with none refused. Judged over the last second alone (two refusals at least), a pace of
    // 0.5-2.5/s was never judged: 194-310 s for three of these five draws.
    for (const randomSeed of [1, 2, 3, 4, 5]) {
      const run = await runAgainstRateLimit({ rate: 1_000_000, latencyMs: 200, requests: 3_000, concurrency: 64, randomRefusals: 0.3, randomSeed });
      expect(run.accepted).toBe(3_000);
      expect(run.elapsedMs, `draw ${randomSeed}`).toBeLessThan(90_000);
    }
  });

  it('paces retries that come back at the same instant (each waited out its own Retry-After)', async () => {
    const run = await runAgainstRateLimit({ rate: 50, latencyMs: 20, requests: 50 * 10 });
    // The first refusals' retries all come back a second later, with new requests waiting too.
    const paced = run.decreases[0]!.at;
    let most = 0;
    for (let i = 0, j = 0; i < run.arrivals.length; i++) {
      if (run.arrivals[i]! < paced + 100) continue;
      while (run.arrivals[j]! < run.arrivals[i]! - 100) j++;
      most = Math.max(most, i - j + 1);
    }
    // 100 ms at the pace (under 2 x 50/s) plus the pace's 50 ms of burst.
    expect(most).toBeLessThanOrEqual(15);
  });
});

describe('starting from the limit an earlier run found (virtual time)', () => {
  it('pays no learning: the probes alone are refused', async () => {
    // R 10 and 20 ms: learning the limit cost 7 refusals of 307 (2.3 %), the next run 2.
    const first = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 10 * 30 });
    const found = first.throttle.limitFound;
    expect(found).toBeGreaterThan(9);
    expect(found).toBeLessThan(11);
    const next = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 10 * 30, rememberedLimit: found! });
    // Held 4 s under the limit before the first probe.
    expect(next.refusals.filter((at) => at < 4_000)).toEqual([]);
    expect(next.refused).toBeLessThanOrEqual(3);
    expect(next.refused).toBeLessThan(first.refused);
    expect(next.accepted / (next.elapsedMs / 1000)).toBeGreaterThanOrEqual(0.95 * 10);
    expect(next.throttle.limitFound).toBeGreaterThan(9);
  });

  it('finds a limit lowered since, and one raised since', async () => {
    const lowered = await runAgainstRateLimit({ rate: 10, latencyMs: 20, requests: 10 * 30, rememberedLimit: 20 });
    expect(acceptedRate(lowered, 5_000, lowered.elapsedMs)).toBeGreaterThanOrEqual(0.95 * 10);
    // Found again near 10/s (the rate refused), not the 20/s remembered.
    expect(lowered.throttle.limitFound).toBeLessThan(0.6 * 20);
    // Doubled since: the pace, from 90 % of it, grows 1 %/s, the growth doubling every 10 s without
    // a 429, so it is over 20/s ~25 s in.
    const raised = await runAgainstRateLimit({ rate: 20, latencyMs: 20, requests: 20 * 60, rememberedLimit: 10 });
    expect(acceptedRate(raised, 30_000, raised.elapsedMs)).toBeGreaterThanOrEqual(0.95 * 20);
  });
});
