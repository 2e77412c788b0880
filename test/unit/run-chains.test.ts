import { describe, expect, it } from 'vitest';
import { runChains, type ChainRunOptions } from '../../src/runner/run-chains.js';
import type { Chain, Slice } from '../../src/plan/index.js';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { planBackfill } from '../../src/plan/index.js';
import { resolveConfig } from '../../src/config/index.js';

const VENUES = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];

/** Real planned chains: three venues, one stream, ten one-week windows each. */
function chains(): Chain[] {
  const config = resolveConfig({ scope: { venues: VENUES } }, {});
  const catalogue = buildCatalogue(config.endpoints);
  return [
    ...planBackfill({
      catalogue,
      streams: ['venue-devices-history'],
      venues: VENUES,
      projects: [],
      from: '2026-01-01',
      to: '2026-03-11',
      today: '2026-04-01',
      windowDays: 7,
      grains: ['day'],
    }),
  ];
}

const total = (list: readonly Chain[]): number => list.reduce((n, c) => n + c.slices.length, 0);
const coded = (code: string): Error => Object.assign(new Error(code), { code });

function options(runSlice: (slice: Slice) => Promise<number>, extra: Partial<ChainRunOptions> = {}): ChainRunOptions & { failures: Slice[] } {
  const failures: Slice[] = [];
  return {
    concurrency: 2,
    runSlice,
    failures,
    onFailure: async (slice) => {
      failures.push(slice);
    },
    isFatal: (error) => (error as { code?: string }).code === 'VENUE_API_AUTH',
    ...extra,
  };
}

describe('runChains counts every slice once', () => {
  it('counts the slices that met a fatal error as failed, and the rest as not run', async () => {
    const planned = chains();
    let started = 0;
    const run = options(async () => {
      started += 1;
      if (started > 4) throw coded('VENUE_API_AUTH');
      return 10;
    });
    const result = await runChains(planned, run);
    expect(result.fatal).toMatchObject({ code: 'VENUE_API_AUTH' });
    expect(result.done + result.failed + result.skipped).toBe(total(planned));
    expect(result.failed).toBe(run.failures.length);
    expect(result.failed).toBeGreaterThan(0);
  });

  it('counts slices stopped by an interruption as not run, never as failed', async () => {
    const planned = chains();
    const controller = new AbortController();
    let started = 0;
    const run = options(
      async () => {
        started += 1;
        if (started === 5) controller.abort(new Error('received SIGINT'));
        if (controller.signal.aborted) throw new DOMException('aborted', 'AbortError');
        return 10;
      },
      { signal: controller.signal },
    );
    const result = await runChains(planned, run);
    expect(result.interrupted).toBe(true);
    expect(result.failed).toBe(0);
    expect(result.done + result.skipped).toBe(total(planned));
  });

  it('counts a failed slice once and its chain behind it as not run', async () => {
    const planned = chains();
    const broken = planned[0]!.slices[3]!;
    const run = options(async (slice) => {
      if (slice === broken) throw coded('VENUE_API_SCHEMA');
      return 1;
    });
    const result = await runChains(planned, run);
    expect(result).toMatchObject({ failed: 1, skipped: planned[0]!.slices.length - 4, done: total(planned) - (planned[0]!.slices.length - 3) });
  });
});
