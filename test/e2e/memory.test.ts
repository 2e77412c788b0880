/**
 * Peak memory of a backfill at size S and 10×S (ten times the venues, so ten times the rows and
 * requests). The figures are printed for the benchmark report; the assertion is only a generous
 * bound (a backfill streams slice by slice, so its peak must not grow with the range).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, summaryNumber, todayUtc, type CliResult, type Fixture } from './harness.js';

const TIME = '/usr/bin/time';
const STREAMS = 'venue-devices-history,venue-users-history,venue-remarketing-history,rating-history';
let fx: Fixture;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { seed: 12, venues: 20, days: 400 } });
});
afterAll(async () => {
  await fx?.close();
});

/** Peak RSS in MB: from `/usr/bin/time -v` when there is one, else the child's VmHWM, sampled. */
function peakMb(run: CliResult): number {
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  const kb = match ? Number(match[1]) : run.peakRssKb;
  if (kb === undefined) throw new Error(`no peak RSS measured\n${describeRun(run)}`);
  return Math.round(kb / 1024);
}

it('peak RSS of a backfill barely grows from S to 10×S', async () => {
  const today = todayUtc();
  const args = ['backfill', '--from', addDays(today, -365), '--to', addDays(today, -1), '--streams', STREAMS, '--window-days', '31'];
  const measure = existsSync(TIME) ? { prefix: [TIME, '-v'] } : { samplePeakRss: true };
  const results: { venues: number; mb: number; rows: number; requests: number; seconds: number }[] = [];
  for (const venues of [2, 20]) {
    const warehousePath = join(fx.dir, `s${venues}`, 'warehouse.duckdb');
    const configPath = fx.writeConfig({ warehousePath, scope: { venues: fx.venues.slice(0, venues) } }, join(fx.dir, `s${venues}.json`));
    const run = await fx.cli(args, { configPath, ...measure });
    expect(run.code, describeRun(run)).toBe(0);
    const [stored] = await queryRows(warehousePath, `SELECT count(*)::INTEGER AS n FROM series_points`);
    results.push({
      venues,
      mb: peakMb(run),
      rows: Number(stored!.n),
      requests: summaryNumber(run.stdout, /requests: ([\d,]+)/),
      seconds: run.durationMs / 1000,
    });
  }
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  expect(large.rows).toBe(10 * small.rows);
  console.log(
    `peak RSS of \`venue-etl ${args.join(' ')}\` (measured with ${existsSync(TIME) ? `${TIME} -v` : 'VmHWM sampling'}):\n` +
      results
        .map((r) => `  ${String(r.venues).padStart(2)} venues: ${r.mb} MB peak, ${r.rows} rows, ${r.requests} requests, ${r.seconds.toFixed(1)} s`)
        .join('\n'),
  );
  expect(small.mb).toBeLessThan(1024);
  expect(large.mb).toBeLessThan(1024);
  expect(large.mb).toBeLessThan(small.mb * 3);
});
