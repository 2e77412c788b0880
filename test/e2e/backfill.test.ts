/**
 * A two-year backfill end to end: refused input, the dry run's plan against the requests a real
 * run makes, the truth, SIGKILL and resume, a finished backfill re-run (no-op, or --force), and
 * the nightly sync that follows it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  CONTENT_COLUMNS,
  describeRun,
  diffMaps,
  duplicateKeys,
  NO_DIFF,
  queryRows,
  runsOf,
  seededRandom,
  startFixture,
  summaryNumber,
  todayUtc,
  type Fixture,
} from './harness.js';
import { expectedSeries, expectedSummaries, storedSeries, storedSummaries, type Range } from './truth.js';

const STREAMS = ['venue-devices-history', 'venue-users-history', 'venue-devices-summary'];
const SUMMARY_STREAM = 'venue-devices-summary';
const WINDOW_DAYS = 90;
const LOOKBACK = 3;

let fx: Fixture;
let from: string;
let to: string;
let cleanConfig: string;
let cleanPath: string;
let args: string[];
/** From the dry run. */
let plan: { slices: number; requests: number };
let clean: { durationMs: number };

beforeAll(async () => {
  assertBuilt();
  const today = todayUtc();
  from = addDays(today, -730);
  to = addDays(today, -1);
  fx = await startFixture({
    sim: { seed: 3, venues: 2, days: 800 },
    // Day summaries for every day of the two years (the default tiers them: tiered.test.ts).
    config: { sync: { startDate: from, lookbackDays: LOOKBACK, streams: STREAMS, summaryGrain: 'day' } },
  });
  cleanPath = join(fx.dir, 'clean', 'warehouse.duckdb');
  cleanConfig = fx.writeConfig({ warehousePath: cleanPath }, join(fx.dir, 'clean.config.json'));
  args = ['backfill', '--from', from, '--to', to, '--window-days', String(WINDOW_DAYS)];
});
afterAll(async () => {
  await fx?.close();
});

/** Requests a slice of the backfill makes: one per window for history, one per day for day-grain summaries. */
const sliceRequests = (stream: string, windowFrom: string, windowTo: string): number =>
  stream === SUMMARY_STREAM ? Math.round((Date.parse(windowTo) - Date.parse(windowFrom)) / 86_400_000) + 1 : 1;

describe('backfill', () => {
  it('refuses bad input with exit 2 and touches nothing', async () => {
    const outsider = '11111111-2222-4333-8444-555555555555';
    const cases: [string[], RegExp][] = [
      [['backfill', '--from', to, '--to', from], /--from .* is after --to/],
      [['backfill', '--from', from, '--to', addDays(todayUtc(), 2)], /is in the future/],
      [['backfill', '--from', from, '--to', to, '--streams', 'venue-devices-histry'], /unknown stream: venue-devices-histry/],
      [['backfill', '--from', from, '--to', to, '--venues', outsider], new RegExp(`not in scope\\.venues: ${outsider}`)],
      [['backfill', '--from', from], /needs --from DATE and --to DATE/],
      [['backfill', '--from', '2026-02-30', '--to', to], /2026-02-30/],
    ];
    const runs = await Promise.all(cases.map(([argv]) => fx.cli(argv)));
    runs.forEach((run, i) => {
      expect(run.code, describeRun(run)).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect(existsSync(fx.warehousePath)).toBe(false);
    expect(fx.sim.requests).toHaveLength(0);
  });

  it('--dry-run prints the plan and touches nothing', async () => {
    const run = await fx.cli([...args, '--dry-run']);
    expect(run.code, describeRun(run)).toBe(0);
    const slices = summaryNumber(run.stdout, /, ([\d,]+) slices, at least/);
    const requests = summaryNumber(run.stdout, /at least ([\d,]+) requests/);
    plan = { slices, requests };
    // 730 days in windows of 90: 9 windows (8 × 90 + 10) per venue and stream; one request per
    // history window, one per day of the day-grain summary.
    expect(plan).toEqual({ slices: 2 * 3 * 9, requests: 2 * (2 * 9 + 730) });
    expect(run.stdout).toMatch(/dry run: nothing was requested or written/);
    expect(existsSync(fx.warehousePath)).toBe(false);
    expect(fx.sim.requests).toHaveLength(0);
  });

  it('loads exactly the truth with exactly the requests the dry run estimated', async () => {
    fx.sim.clearRequests();
    const run = await fx.cli(args, { configPath: cleanConfig });
    expect(run.code, describeRun(run)).toBe(0);
    clean = { durationMs: run.durationMs };
    // The estimate plus the token check; no list endpoint here, so no extra pages.
    expect(fx.sim.requests.length).toBe(plan.requests + 1);
    expect(summaryNumber(run.stdout, /requests: ([\d,]+)/)).toBe(plan.requests);

    const range: Range = { venues: fx.venues, streams: STREAMS, from, to };
    const series = await storedSeries(cleanPath, range);
    expect(series.size).toBe(2 * 730 * 6);
    expect(diffMaps(series, expectedSeries(fx.sim, range))).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(cleanPath, range), expectedSummaries(fx.sim, range))).toEqual(NO_DIFF);
    expect(await duplicateKeys(cleanPath)).toEqual({ series: 0, summaries: 0, cursors: 0 });
    const [progress] = await queryRows(
      cleanPath,
      `SELECT (SELECT count(*) FROM backfill_slices WHERE status = 'done')::INTEGER AS done, (SELECT list(status) FROM backfills) AS backfills`,
    );
    expect(progress).toEqual({ done: plan.slices, backfills: ['finished'] });
    // It reached back to sync.startDate, so the cursors moved up to its end.
    const cursors = await queryRows(cleanPath, `SELECT DISTINCT strftime(cursor_date, '%Y-%m-%d') AS d FROM sync_cursors`);
    expect(cursors).toEqual([{ d: to }]);
  });

  it('killed with SIGKILL and run again, resumes where it stopped and equals the clean backfill', async () => {
    const random = seededRandom(99);
    const moments: string[] = [];
    for (let i = 0; i < 3; i++) {
      // The first at a moment in time, the others after a seeded number of API requests (a
      // moment in work, whatever the machine's speed).
      const run =
        i === 0
          ? await fx.cli(args, { killAfterMs: Math.round(600 + random() * (clean.durationMs - 600)) })
          : await fx.cli([...args, '--log-level', 'debug'], { killWhenStderr: /"api request"/, killAfterMatches: 100 + Math.floor(random() * 400) });
      if (!run.killed) expect(run.code, describeRun(run)).toBe(0);
      moments.push(run.killed ? `killed at ${run.durationMs} ms` : `finished in ${run.durationMs} ms`);
    }
    // What the killed runs finished: the re-run skips exactly these slices and their requests.
    const done = await queryRows(
      fx.warehousePath,
      `SELECT stream, strftime(window_from, '%Y-%m-%d') AS f, strftime(window_to, '%Y-%m-%d') AS t FROM backfill_slices WHERE status = 'done'`,
    );
    expect(done.length).toBeGreaterThan(0);
    const doneRequests = done.reduce((n, s) => n + sliceRequests(String(s.stream), String(s.f), String(s.t)), 0);
    console.log(`backfill (clean ${clean.durationMs} ms): ${moments.join(', ')}; ${done.length} of ${plan.slices} slices done before the re-run`);

    fx.sim.clearRequests();
    const rerun = await fx.cli(args);
    expect(rerun.code, describeRun(rerun)).toBe(0);
    if (done.length > 0 && done.length < plan.slices) {
      expect(rerun.stdout).toMatch(new RegExp(`resumed: ${done.length} slices were already done`));
    }
    if (done.length < plan.slices) expect(fx.sim.requests.length).toBe(plan.requests - doneRequests + 1);

    expect(await checksums(fx.warehousePath, CONTENT_COLUMNS)).toEqual(await checksums(cleanPath, CONTENT_COLUMNS));
    expect(await duplicateKeys(fx.warehousePath)).toEqual({ series: 0, summaries: 0, cursors: 0 });
    expect((await runsOf(fx.warehousePath)).filter((r) => r.status === 'running')).toEqual([]);
  });

  it('a finished backfill run again is a no-op, unless --force', async () => {
    const before = await checksums(fx.warehousePath, CONTENT_COLUMNS);
    fx.sim.clearRequests();
    const again = await fx.cli(args);
    expect(again.code, describeRun(again)).toBe(0);
    expect(again.stdout).toMatch(/already finished: nothing to do/);
    expect(fx.sim.requests.map((r) => r.path)).toEqual(['/accounts/filtered-accounts/me/']);

    fx.sim.clearRequests();
    const forced = await fx.cli([...args, '--force']);
    expect(forced.code, describeRun(forced)).toBe(0);
    expect(fx.sim.requests.length).toBe(plan.requests + 1);
    expect(summaryNumber(forced.stdout, /([\d,]+) written/)).toBe(0);
    expect(await checksums(fx.warehousePath, CONTENT_COLUMNS)).toEqual(before);
  });

  it('the nightly sync after it re-reads only the lookback', async () => {
    fx.sim.clearRequests();
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    // Per venue: one window per history stream, one request per lookback day of the summary.
    expect(fx.sim.requests.length).toBe(fx.venues.length * (2 + LOOKBACK) + 1);
    const dates = new Set(fx.sim.requests.flatMap((r) => [...r.query.matchAll(/(?:from|to)=(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1])));
    expect([...dates].sort()).toEqual([addDays(to, 1 - LOOKBACK), addDays(to, 2 - LOOKBACK), to].slice(0, LOOKBACK));
    expect(summaryNumber(run.stdout, /([\d,]+) written/)).toBe(0);
  });
});
