/**
 * The hour grain end to end (sync.historyGrain ["day", "hour"]): both grains exact against the
 * simulator after a sync, late revisions within the lookback, a backfill (also `--grain hour`),
 * `kill -9` + rerun; --dry-run request counts equal the requests made; `check` catches hours
 * that do not add up to their day.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from '../../src/warehouse/sql-files.js';
import {
  addDays,
  assertBuilt,
  checksums,
  CONTENT_COLUMNS,
  cursorsOf,
  describeRun,
  diffMaps,
  duplicateKeys,
  eachDay,
  NO_DIFF,
  queryRows,
  startFixture,
  todayUtc,
  type Fixture,
} from './harness.js';
import { expectedSeries, SERIES, storedSeries, type Range } from './truth.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startMutatingProxy, type TestHost } from './mutating-proxy.js';

const DAYS = 6;
const LOOKBACK = 2;
const REVISED_DAYS = 2;
let fx: Fixture;
let today: string;
let yesterday: string;

/** The truth of both grains over [from, to]: the daily points of the range plus the 24 hourly points of each day. */
function expectedBothGrains(sim: Simulator, range: Range): Map<string, number | null> {
  const both = expectedSeries(sim, range);
  for (const day of eachDay(range.from, range.to)) {
    for (const [key, value] of expectedSeries(sim, { ...range, from: day, to: day })) both.set(key, value);
  }
  return both;
}

/** Requests for history endpoints the simulator answered since `since`. */
function historyRequests(sim: Simulator, since: number): number {
  return sim.requests.slice(since).filter((r) => SERIES.some((s) => r.path.includes(`/${s}/`))).length;
}

beforeAll(async () => {
  assertBuilt();
  today = todayUtc();
  yesterday = addDays(today, -1);
  fx = await startFixture({
    sim: { seed: 14, venues: 2, days: 40, reviseRecentDays: REVISED_DAYS },
    config: { sync: { startDate: addDays(today, -DAYS), lookbackDays: LOOKBACK, windowDays: 7, streams: [...SERIES], historyGrain: ['day', 'hour'] } },
  });
});
afterAll(async () => {
  await fx?.close();
});

describe('sync.historyGrain ["day", "hour"]', () => {
  it('a sync loads both grains side by side, each exact, with a cursor each', async () => {
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    const range = { venues: fx.venues, streams: SERIES, from: addDays(today, -DAYS), to: yesterday };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedBothGrains(fx.sim, range))).toEqual(NO_DIFF);
    const [grains] = await queryRows(
      fx.warehousePath,
      `SELECT count(*) FILTER (WHERE granularity = 'hour')::INTEGER AS hours, count(*) FILTER (WHERE granularity = 'day')::INTEGER AS days FROM series_points`,
    );
    // 2 venues × 6 days × 9 metrics, by the day and by the hour.
    expect(grains).toEqual({ hours: 2 * DAYS * 9 * 24, days: 2 * DAYS * 9 });
    const cursors = await cursorsOf(fx.warehousePath);
    for (const stream of SERIES) {
      for (const venue of fx.venues) {
        expect(cursors.get(`${stream}|${venue}`)?.date).toBe(yesterday);
        expect(cursors.get(`${stream}@hour|${venue}`)?.date).toBe(yesterday);
      }
    }
    const check = await fx.cli(['check']);
    expect(check.stdout).toMatch(/^hours-vs-days\s+ok\s+0/m);
    expect(check.stdout).toMatch(/^series-partial-hours\s+ok\s+0/m);
    expect(check.stdout).toMatch(/^series-gaps\s+ok\s+0/m);
  });

  it('late revisions within the lookback reach both grains; the day grain is not touched by the hours and the reverse', async () => {
    fx.sim.revise();
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    const range = { venues: fx.venues, streams: SERIES, from: addDays(today, -DAYS), to: yesterday };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedBothGrains(fx.sim, range))).toEqual(NO_DIFF);
    // Revised days were rewritten in both grains (the revision changes today and the 2 days before it).
    const [rewritten] = await queryRows(
      fx.warehousePath,
      `SELECT count(DISTINCT granularity)::INTEGER AS grains FROM series_points WHERE run_id = (SELECT max_by(run_id, started_at) FROM sync_runs)`,
    );
    expect(rewritten).toEqual({ grains: 2 });
  });

  it('--dry-run counts the requests a backfill makes, by grain', async () => {
    const from = addDays(today, -20);
    const to = addDays(today, -15);
    const dry = await fx.cli(['backfill', '--from', from, '--to', to, '--dry-run']);
    expect(dry.code, describeRun(dry)).toBe(0);
    const planned = Number(/at least (\d+) requests/.exec(dry.stdout)?.[1]);
    // 4 streams × 2 venues: one request for the 6-day window + one per day by the hour.
    expect(planned).toBe(4 * 2 * (1 + 6));
    expect(dry.stdout).toMatch(/venue-devices-history@hour\s+hour\s+2 slices\s+12 requests/);
    const before = fx.sim.requests.length;
    const run = await fx.cli(['backfill', '--from', from, '--to', to]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(historyRequests(fx.sim, before)).toBe(planned);
    const range = { venues: fx.venues, streams: SERIES, from, to };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedBothGrains(fx.sim, range))).toEqual(NO_DIFF);
  });

  it('backfill --grain hour loads only the hours, and plans only their requests', async () => {
    const from = addDays(today, -30);
    const to = addDays(today, -28);
    const dry = await fx.cli(['backfill', '--from', from, '--to', to, '--grain', 'hour', '--dry-run']);
    const planned = Number(/at least (\d+) requests/.exec(dry.stdout)?.[1]);
    expect(planned).toBe(4 * 2 * 3);
    const before = fx.sim.requests.length;
    const run = await fx.cli(['backfill', '--from', from, '--to', to, '--grain', 'hour']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(historyRequests(fx.sim, before)).toBe(planned);
    // Summaries have no hours: none was asked for.
    expect(fx.sim.requests.slice(before).filter((r) => r.path.includes('summar')).length).toBe(0);
    const range = { venues: fx.venues, streams: SERIES, from, to };
    const hoursOnly = new Map([...expectedBothGrains(fx.sim, range)].filter(([key]) => key.includes('|hour|')));
    expect(diffMaps(await storedSeries(fx.warehousePath, range), hoursOnly)).toEqual(NO_DIFF);
    const bad = await fx.cli(['backfill', '--from', from, '--to', to, '--grain', 'minute']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--grain takes hour or day');
  });

  it('check lists a day whose hours do not add up to it', async () => {
    const instance = await DuckDBInstance.create(fx.warehousePath);
    const connection = await instance.connect();
    const day = addDays(today, -3);
    await connection.run(`UPDATE series_points SET value = value + 5 WHERE granularity = 'hour' AND stream = 'venue-users-history' AND metric = 'logins'
      AND venue_id = '${fx.venues[0]}' AND ts = TIMESTAMPTZ '${day} 12:00:00+00'`);
    // Written by hand, not by a load: the daily rollup the checks read is summed again.
    await connection.run(sql('rollups/series-daily-rebuild.sql'));
    connection.closeSync();
    instance.closeSync();
    const check = await fx.cli(['check', '--log-level', 'silent']);
    expect(check.code).toBe(1);
    const found = new RegExp(
      `^hours-vs-days\\s+FAILED\\s+1\\s+venue_id=${fx.venues[0]} stream=venue-users-history metric=logins day=${day} day_value=(\\d+) hours_total=(\\d+)`,
      'm',
    ).exec(check.stdout);
    expect(found, check.stdout).not.toBeNull();
    expect(Number(found![2]) - Number(found![1])).toBe(5);
  });
});

describe('kill -9 with the hour grain', () => {
  it('a sync killed mid-run and run again equals a clean run of both grains', async () => {
    const cleanPath = join(fx.dir, 'clean', 'warehouse.duckdb');
    const sync = { startDate: addDays(today, -DAYS), historyGrain: ['day', 'hour'] };
    const cleanConfig = fx.writeConfig({ warehousePath: cleanPath, sync }, join(fx.dir, 'clean.config.json'));
    expect((await fx.cli(['sync'], { configPath: cleanConfig })).code).toBe(0);
    const killedPath = join(fx.dir, 'killed', 'warehouse.duckdb');
    const killedConfig = fx.writeConfig({ warehousePath: killedPath, sync }, join(fx.dir, 'killed.config.json'));
    let killedRuns = 0;
    for (const requests of [12, 40]) {
      const run = await fx.cli(['sync', '--log-level', 'debug'], { configPath: killedConfig, killWhenStderr: /"api request"/, killAfterMatches: requests });
      if (run.killed) killedRuns += 1;
    }
    expect(killedRuns).toBeGreaterThanOrEqual(1);
    const rerun = await fx.cli(['sync'], { configPath: killedConfig });
    expect(rerun.code, describeRun(rerun)).toBe(0);
    expect(await checksums(killedPath, CONTENT_COLUMNS)).toEqual(await checksums(cleanPath, CONTENT_COLUMNS));
    expect(await duplicateKeys(killedPath)).toEqual({ series: 0, summaries: 0, cursors: 0 });
    const range = { venues: fx.venues, streams: SERIES, from: addDays(today, -DAYS), to: yesterday };
    expect(diffMaps(await storedSeries(killedPath, range), expectedBothGrains(fx.sim, range))).toEqual(NO_DIFF);
  });
});

describe('hostile hourly answers', () => {
  let proxy: TestHost | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it('a day of 23 hours, or an hour outside the day, fails only its slice and keeps the rest', async () => {
    const broken = addDays(today, -2);
    type Series = Record<string, [string, number | null][]>;
    proxy = await startMutatingProxy(fx.sim.url, async (req, res, forward) => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const upstream = await forward();
      const hourly = url.searchParams.get('from') === broken && url.searchParams.get('to') === broken;
      const target = fx.venues[0]!;
      const mangle =
        hourly && url.pathname.includes(target)
          ? url.pathname.includes('/venue-users-history/')
            ? 'drop'
            : url.pathname.includes('/venue-devices-history/')
              ? 'shift'
              : undefined
          : undefined;
      if (!mangle) return res.writeHead(upstream.status, { 'content-type': upstream.contentType }).end(upstream.body);
      const document = JSON.parse(upstream.body.toString('utf8')) as { data: { attributes: Series } };
      for (const points of Object.values(document.data.attributes)) {
        if (!Array.isArray(points)) continue;
        // drop: 23 points; shift: the last hour moved to the next day's first.
        if (mangle === 'drop') points.pop();
        else points[23] = [`${addDays(broken, 1)}T00:00:00+00:00`, points[23]![1]];
      }
      return res.writeHead(200, { 'content-type': upstream.contentType }).end(JSON.stringify(document));
    });
    const path = join(fx.dir, 'hostile', 'warehouse.duckdb');
    const configPath = fx.writeConfig(
      { warehousePath: path, api: { baseUrl: proxy.url }, sync: { historyGrain: ['day', 'hour'] } },
      join(fx.dir, 'hostile.config.json'),
    );
    const run = await fx.cli(['sync'], { configPath });
    expect(run.code, describeRun(run)).toBe(3);
    const errors = await queryRows(path, `SELECT stream, scope_id AS scope, error_code AS code, message FROM sync_errors ORDER BY stream`);
    expect(errors).toEqual([
      {
        stream: 'venue-devices-history@hour',
        scope: fx.venues[0],
        code: 'VENUE_API_WRONG_GRAIN',
        message: expect.stringContaining(`outside the requested day ${broken}`),
      },
      {
        stream: 'venue-users-history@hour',
        scope: fx.venues[0],
        code: 'VENUE_API_INCOMPLETE_ANSWER',
        message: expect.stringContaining('is missing 1 of 24 hours'),
      },
    ]);
    // Everything else is exact: the day grain of those streams, the other venue, the other streams' hours.
    const range = { venues: fx.venues, streams: SERIES, from: addDays(today, -DAYS), to: yesterday };
    const failedSlice = (key: string) =>
      key.startsWith(`${fx.venues[0]}|`) && key.includes('|hour|') && (key.includes('|venue-users-history|') || key.includes('|venue-devices-history|'));
    const expected = new Map([...expectedBothGrains(fx.sim, range)].filter(([key]) => !failedSlice(key)));
    expect(diffMaps(await storedSeries(path, range), expected)).toEqual(NO_DIFF);
    const cursors = await cursorsOf(path);
    expect(cursors.get(`venue-users-history@hour|${fx.venues[0]}`)).toBeUndefined();
    expect(cursors.get(`venue-users-history|${fx.venues[0]}`)?.date).toBe(yesterday);
    expect(cursors.get(`venue-users-history@hour|${fx.venues[1]}`)?.date).toBe(yesterday);
  });
});
