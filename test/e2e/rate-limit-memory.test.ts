/**
 * The rate limit a run finds is remembered: the next run against the same API starts paced just
 * under it instead of ramping into it (docs/rate-limits.md). Both runs are the real CLI against
 * the simulator's token bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/simulator/index.js';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';

const RATE = 50;
/** The next run starts at 90 % of the remembered limit and reaches it ~10 s in: no 429 is expected in its first 2 s. */
const HELD_MS = 2_000;

let fx: Fixture;
let today: string;

beforeAll(async () => {
  assertBuilt();
  today = todayUtc();
  fx = await startFixture({
    // ~290 requests a run, 6 s at R: a run much shorter than that ends before it finds the limit.
    sim: { seed: 5, venues: 3, days: 60, rateLimit: RATE },
    config: { sync: { startDate: addDays(today, -14), windowDays: 7 } },
  });
});

afterAll(async () => {
  await fx?.close();
});

/** The API requests of one run, in arrival order, with their time from the run's first request. */
function requestsOfRun(requests: readonly RecordedRequest[]): { at: number; status: number }[] {
  const first = Date.parse(requests[0]?.at ?? '');
  return requests.map((r) => ({ at: Date.parse(r.at) - first, status: r.status }));
}

async function recordedLimits(): Promise<(number | null)[]> {
  const rows = await queryRows(fx.warehousePath, `SELECT json_extract(detail, '$.api.rateLimitPerSecond')::DOUBLE AS rate FROM sync_runs ORDER BY run_id`);
  return rows.map((row) => (row.rate === null ? null : Number(row.rate)));
}

describe('the rate limit a run found', () => {
  it('is recorded by the run; the next run starts paced under it, a dry run estimates with it', async () => {
    fx.sim.clearRequests();
    const first = await fx.cli(['sync']);
    expect(first.code, describeRun(first)).toBe(0);
    const firstRequests = requestsOfRun(fx.sim.requests);
    // Without a limit known, the ramp runs into the bucket (when depends on the machine's load).
    expect(firstRequests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const [found] = await recordedLimits();
    expect(found).toBeGreaterThan(0.8 * RATE);
    expect(found).toBeLessThan(1.25 * RATE);
    const refused = firstRequests.filter((r) => r.status === 429).length;
    const summary = /429s: +(\d+) \(retried\); rate limit (\d+\.\d) requests\/s/.exec(first.stdout);
    expect(summary, first.stdout).not.toBeNull();
    expect(Number(summary![1])).toBe(refused);
    expect(Math.abs(Number(summary![2]) - found!)).toBeLessThanOrEqual(0.051);

    fx.sim.clearRequests();
    const next = await fx.cli(['backfill', '--from', addDays(today, -28), '--to', addDays(today, -15), '--log-level', 'info']);
    expect(next.code, describeRun(next)).toBe(0);
    expect(next.stderr).toContain('api rate limit found by an earlier run');
    const nextRequests = requestsOfRun(fx.sim.requests);
    expect(nextRequests.length).toBeGreaterThan((HELD_MS / 1000) * RATE);
    expect(nextRequests.filter((r) => r.status === 429 && r.at < HELD_MS)).toEqual([]);
    const limits = await recordedLimits();
    expect(limits).toHaveLength(2);
    expect(limits[1]).toBeGreaterThan(0.8 * RATE);

    // A dry run bounds a backfill's time by the limit found.
    const plan = await fx.cli(['backfill', '--from', addDays(today, -56), '--to', addDays(today, -29), '--dry-run']);
    expect(plan.code, describeRun(plan)).toBe(0);
    expect(plan.stdout).toContain(`at the API's rate limit (${limits[1]!.toFixed(1)} requests/s, found by an earlier run): at least`);
  });
});
