/**
 * The plan is read lazily: a chain is planned when the runner takes it, and the runner takes one
 * only when a chain in flight has finished. So a run of thousands of venues over years holds the
 * chains in flight, not the plan.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { resolveConfig } from '../../src/config/index.js';
import { backfillChains, planBackfill, syncChains, type Chain } from '../../src/plan/index.js';
import { runChains } from '../../src/runner/run-chains.js';

const catalogue = buildCatalogue(resolveConfig({}, {}).endpoints);
const venueIds = Array.from({ length: 1000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** The venues of a plan, counting which ones the planner has read. */
function countedVenues(): { venues: readonly string[]; read: Set<number> } {
  const read = new Set<number>();
  const venues = new Proxy(venueIds, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) read.add(Number(key));
      return Reflect.get(target, key, receiver);
    },
  });
  return { venues, read };
}

const twoYears = { projects: [], from: '2024-11-01', to: '2026-10-31', today: '2026-11-23', windowDays: 31, grains: ['day' as const, 'month' as const] };

describe('the plan is lazy', () => {
  it('yields the first chain of a 1,000-venue x 2-year backfill having planned one venue only', () => {
    const { venues, read } = countedVenues();
    const chains = backfillChains({ ...twoYears, catalogue, streams: ['venue-users-summary', 'venue-devices-history'], venues });
    const first = chains.next();
    expect(first.done).toBe(false);
    expect(first.value?.scopeId).toBe(venueIds[0]);
    expect([...read]).toEqual([0]);
  });

  it('plans a sync a chain at a time too', () => {
    const { venues, read } = countedVenues();
    const chains = syncChains({
      catalogue,
      streams: ['venue-users-summary'],
      venues,
      projects: [],
      cursors: new Map(),
      startDate: '2024-11-01',
      lookbackDays: 3,
      until: '2026-11-22',
      today: '2026-11-23',
      windowDays: 31,
      grains: ['day'],
    });
    expect(chains.next().value?.scopeId).toBe(venueIds[0]);
    expect([...read]).toEqual([0]);
  });

  it('yields the same chains as the plan made at once', () => {
    const input = { ...twoYears, catalogue, streams: ['venue-users-summary', 'venue-devices-history', 'venue-roles'], venues: venueIds.slice(0, 3) };
    const lazy = [...backfillChains(input)];
    expect(lazy.length).toBe(9);
    expect(lazy).toEqual(planBackfill(input));
  });
});

describe('runChains reads the plan only as far as the chains in flight', () => {
  it('takes a chain from the plan only when a slot is free, and runs them all', async () => {
    const planned = planBackfill({ ...twoYears, catalogue, streams: ['venue-devices-history'], venues: venueIds.slice(0, 50) });
    let taken = 0;
    function* plan(): Generator<Chain> {
      for (const chain of planned) {
        taken += 1;
        yield chain;
      }
    }
    const release: (() => void)[] = [];
    let running = 0;
    let mostRunning = 0;
    let takenWhileBlocked = 0;
    const done = runChains(plan(), {
      concurrency: 4,
      runSlice: async () => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running -= 1;
        return 1;
      },
      onFailure: async () => undefined,
      isFatal: () => false,
    });
    // Let the workers start: each holds one slice, waiting.
    while (release.length < 4) await new Promise((resolve) => setImmediate(resolve));
    takenWhileBlocked = taken;
    while (release.length > 0 || running > 0) {
      for (const resolve of release.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = await done;
    expect(takenWhileBlocked).toBe(4);
    expect(mostRunning).toBeLessThanOrEqual(4);
    expect(taken).toBe(50);
    expect(result.done).toBe(planned.reduce((n, chain) => n + chain.slices.length, 0));
  });
});
