/**
 * What goes wrong in production, end to end: a refused token, a stream whose documents stop
 * matching the spec, and an unreliable API (throttling, 5xx, resets, cut bodies).
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  childEnv,
  cursorsOf,
  describeRun,
  diffMaps,
  NO_DIFF,
  queryRows,
  runsOf,
  startFixture,
  summaryNumber,
  todayUtc,
  TOKEN_ENV,
  WRITTEN_COLUMNS,
  type Fixture,
} from './harness.js';
import { expectedSeries, expectedSummaries, SERIES, storedSeries, storedSummaries, SUMMARY_KIND, type Range } from './truth.js';

let fx: Fixture | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const today = todayUtc();
const yesterday = addDays(today, -1);
const STREAMS = [...SERIES, ...SUMMARY_KIND];

describe('a refused token', () => {
  it('exits 1 with a message naming the setting, and creates no warehouse', async () => {
    fx = await startFixture({ sim: { venues: 2 } });
    const wrong = 'not-the-token-1234';
    const run = await fx.cli(['sync'], { env: childEnv({ [TOKEN_ENV]: wrong }) });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stderr).toMatch(/VENUE_API_AUTH/);
    expect(run.stderr).toMatch(/api\.token/);
    expect(run.stderr).toMatch(/VENUE_API_TOKEN/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toContain(wrong);
    expect(existsSync(fx.warehousePath)).toBe(false);
    // One request, the token check: nothing else was tried.
    expect(fx.sim.requests.map((r) => [r.path, r.status])).toEqual([['/accounts/filtered-accounts/me/', 401]]);
  });

  it('leaves the data of an existing warehouse as it was, and records the failed run', async () => {
    fx = await startFixture({ sim: { venues: 2 }, config: { sync: { startDate: addDays(today, -5) } } });
    const first = await fx.cli(['sync']);
    expect(first.code, describeRun(first)).toBe(0);
    const before = await checksums(fx.warehousePath, WRITTEN_COLUMNS);
    const runs = await runsOf(fx.warehousePath);

    const run = await fx.cli(['sync'], { env: childEnv({ [TOKEN_ENV]: 'wrong-token-5678' }) });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stderr).toMatch(/api\.token/);
    expect(await checksums(fx.warehousePath, WRITTEN_COLUMNS)).toEqual(before);
    // The data is untouched; the night that failed at the access check is on record as a failed run.
    const after = await runsOf(fx.warehousePath);
    expect(after.slice(0, runs.length)).toEqual(runs);
    expect(after.slice(runs.length)).toEqual([expect.objectContaining({ job: 'sync', status: 'failed', requests: 0, rowsWritten: 0, errors: 1 })]);
  });

  it('a missing token variable is a config error (exit 2) that names it', async () => {
    fx = await startFixture({ sim: { venues: 2 } });
    const run = await fx.cli(['sync'], { env: childEnv() });
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain(TOKEN_ENV);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(fx.sim.requests).toHaveLength(0);
    expect(existsSync(fx.warehousePath)).toBe(false);
  });
});

describe('refused sync arguments', () => {
  it('exit 2 before any request, and create nothing', async () => {
    fx = await startFixture({ sim: { venues: 2 } });
    const cases: [string[], RegExp][] = [
      [['sync', '--streams', 'venue-devices-histroy'], /unknown stream: venue-devices-histroy/],
      [['sync', '--venues', '11111111-2222-4333-8444-555555555555'], /not in scope\.venues/],
      [['sync', '--until', addDays(today, 3)], /is in the future/],
      [['sync', '--until', 'yesterday'], /--until/],
    ];
    const runs = await Promise.all(cases.map(([argv]) => fx!.cli(argv)));
    runs.forEach((run, i) => {
      expect(run.code, describeRun(run)).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect(fx.sim.requests).toHaveLength(0);
    expect(existsSync(fx.warehousePath)).toBe(false);
  });
});

describe('a stream whose documents lose an attribute', () => {
  it('fails that stream only (exit 3), keeps its cursor, and the next run repairs it', async () => {
    fx = await startFixture({ sim: { venues: 2 }, config: { sync: { startDate: addDays(today, -8) } } });
    const path = fx.warehousePath;
    const earlier = addDays(yesterday, -3);
    const clean = await fx.cli(['sync', '--until', earlier]);
    expect(clean.code, describeRun(clean)).toBe(0);
    const cursorsBefore = await cursorsOf(path);

    fx.sim.setFaults('drift-missing=1@venue-users-history');
    const broken = await fx.cli(['sync']);
    expect(broken.code, describeRun(broken)).toBe(3);
    expect(broken.stdout).toMatch(/partial/);
    const run = (await runsOf(path)).at(-1)!;
    expect(run).toMatchObject({ status: 'partial', errors: fx.venues.length });

    const errors = await queryRows(path, `SELECT stream, scope_id, error_code, message FROM sync_errors WHERE run_id = '${run.runId}' ORDER BY scope_id`);
    expect(errors).toEqual(
      [...fx.venues].sort().map((venue) => ({
        stream: 'venue-users-history',
        scope_id: venue,
        error_code: 'VENUE_API_SCHEMA',
        message: expect.stringMatching(/venue-users-history: data\.attributes\.unique-logins is missing/),
      })),
    );

    const cursors = await cursorsOf(path);
    for (const venue of fx.venues) {
      // The failed stream's cursor did not move (same date, same run); every other stream's did.
      expect(cursors.get(`venue-users-history|${venue}`)).toEqual(cursorsBefore.get(`venue-users-history|${venue}`));
      expect(cursors.get(`venue-users-history|${venue}`)?.date).toBe(earlier);
      for (const stream of STREAMS.filter((s) => s !== 'venue-users-history')) expect(cursors.get(`${stream}|${venue}`)?.date, stream).toBe(yesterday);
    }
    const loaded: Range = { venues: fx.venues, streams: STREAMS.filter((s) => s !== 'venue-users-history'), from: addDays(today, -8), to: yesterday };
    expect(diffMaps(await storedSeries(path, loaded), expectedSeries(fx.sim, loaded))).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(path, loaded), expectedSummaries(fx.sim, loaded))).toEqual(NO_DIFF);
    // Nothing of the failed windows was written: the stream still ends where its cursor is.
    const [last] = await queryRows(path, `SELECT strftime(max(ts), '%Y-%m-%d') AS d FROM series_points WHERE stream = 'venue-users-history'`);
    expect(last).toEqual({ d: earlier });

    fx.sim.setFaults('none');
    const repaired = await fx.cli(['sync']);
    expect(repaired.code, describeRun(repaired)).toBe(0);
    const users: Range = { ...loaded, streams: ['venue-users-history'] };
    expect(diffMaps(await storedSeries(path, users), expectedSeries(fx.sim, users))).toEqual(NO_DIFF);
    for (const venue of fx.venues) expect((await cursorsOf(path)).get(`venue-users-history|${venue}`)?.date).toBe(yesterday);
  });
});

describe('a backfill with a failing stream', () => {
  it('exits 3, and the same command afterwards runs only what failed or did not run', async () => {
    const from = addDays(today, -100);
    // Day summaries for all 100 days, as the truth below has them (the default would load months before the last 92).
    fx = await startFixture({ sim: { venues: 2, faults: 'drift-missing=1@venue-users-history' }, config: { sync: { startDate: from, summaryGrain: 'day' } } });
    const args = [
      'backfill',
      '--from',
      from,
      '--to',
      yesterday,
      '--streams',
      'venue-devices-history,venue-users-history,venue-devices-summary',
      '--window-days',
      '30',
    ];
    const broken = await fx.cli(args);
    expect(broken.code, describeRun(broken)).toBe(3);
    // 100 days in windows of 30: 4 per venue and stream. The first users window fails, so its
    // chain stops there: 1 failed and 3 not run per venue.
    expect(broken.stdout).toMatch(/16 done, 2 failed, 6 not run \(of 24\)/);
    const errors = await queryRows(fx.warehousePath, `SELECT DISTINCT stream, strftime(window_from, '%Y-%m-%d') AS f FROM sync_errors`);
    expect(errors).toEqual([{ stream: 'venue-users-history', f: from }]);

    fx.sim.setFaults('none');
    fx.sim.clearRequests();
    const resumed = await fx.cli(args);
    expect(resumed.code, describeRun(resumed)).toBe(0);
    expect(resumed.stdout).toMatch(/resumed: 16 slices were already done/);
    // Every planned slice is accounted for, the ones the first run did included.
    expect(resumed.stdout).toMatch(/8 done, 0 failed, 0 not run, 16 done by an earlier run \(of 24\)/);
    const [detail] = await queryRows(fx.warehousePath, `SELECT detail->'slices' AS slices FROM sync_runs ORDER BY run_id DESC LIMIT 1`);
    expect(JSON.parse(String(detail!.slices))).toEqual({ total: 24, done: 8, failed: 0, skipped: 0, doneEarlier: 16 });
    // The token check, then the 8 users windows only.
    expect(fx.sim.requests.slice(1).map((r) => r.path.split('/')[2])).toEqual(Array(8).fill('venue-users-history'));
    const range: Range = { venues: fx.venues, streams: ['venue-devices-history', 'venue-users-history', 'venue-devices-summary'], from, to: yesterday };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range))).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(fx.warehousePath, range), expectedSummaries(fx.sim, range))).toEqual(NO_DIFF);
    expect((await fx.cli(args)).stdout).toMatch(/already finished/);
  });
});

describe('an unreliable API', () => {
  it('retries through throttling, 5xx, resets and cut bodies and loads exactly the truth', async () => {
    fx = await startFixture({
      // Drawn at random per (URL, attempt), and each kind also scheduled on the first two
      // requests of the two series streams (a few URLs each): every kind is met whatever the
      // date (the URLs, so the draws, change daily).
      sim: {
        venues: 2,
        seed: 5,
        faults:
          '429=0.1,500=0.05,reset=0.02,truncate=0.02,' +
          '429=1@venue-devices-history#1,500=1@venue-devices-history#2,reset=1@venue-users-history#1,truncate=1@venue-users-history#2',
      },
      config: { sync: { startDate: addDays(today, -10) }, api: { maxRetries: 12 } },
    });
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    // Retries are routine: no process warnings (e.g. a listener-leak alarm) on stderr.
    expect(run.stderr).not.toMatch(/Warning/);

    const range: Range = { venues: fx.venues, streams: STREAMS, from: addDays(today, -10), to: yesterday };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range))).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(fx.warehousePath, range), expectedSummaries(fx.sim, range))).toEqual(NO_DIFF);

    const injected = fx.sim.requests.filter((r) => r.fault !== undefined);
    expect(new Set(injected.map((r) => r.fault))).toEqual(new Set(['429', '500', 'reset', 'truncate']));
    const retries = summaryNumber(run.stdout, /\(([\d,]+) retries\)/);
    expect(retries).toBeGreaterThan(0);
    // Each injected fault cost one retry. The run counts its own requests: faults on the token
    // check (the leading requests, before the first answered one) are not the run's.
    const firstAnswered = fx.sim.requests.findIndex((r) => r.fault === undefined);
    expect(retries).toBe(injected.length - firstAnswered);
    expect((await runsOf(fx.warehousePath)).at(-1)).toMatchObject({ status: 'succeeded', retries });
  });
});
