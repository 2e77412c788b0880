/**
 * Sharded workers end to end: three `sync --shard I/3` processes, each with its own warehouse,
 * against one simulator, together hold exactly the rows of one unsharded sync; roles and
 * accounts are in shard 0's warehouse only. A bad shard is a usage error (exit 2) with a hint.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from './harness.js';
import { SERIES, storedAccounts, storedRoles, storedSeries, storedSummaries, SUMMARY_KIND, type Range } from './truth.js';
import { venuesOfShard } from '../../src/runner/shard.js';

const SHARDS = 3;
const DAYS = 10;

let fx: Fixture;
let range: Range;
let unsharded: string;
const shardPaths: string[] = [];
const shardRuns: CliResult[] = [];

beforeAll(async () => {
  assertBuilt();
  const today = todayUtc();
  fx = await startFixture({ sim: { seed: 16, venues: 9, days: 30 }, config: { sync: { startDate: addDays(today, -DAYS), lookbackDays: 2, windowDays: 7 } } });
  range = { venues: fx.venues, streams: [...SERIES, ...SUMMARY_KIND], from: addDays(today, -DAYS), to: addDays(today, -1) };
  unsharded = fx.warehousePath;
  const whole = await fx.cli(['sync']);
  expect(whole.code, describeRun(whole)).toBe(0);
  // Three workers at once, each with its own config and warehouse; the last one takes its
  // shard from the environment, as a Kubernetes Indexed Job passes it.
  const runs = Array.from({ length: SHARDS }, (_, index) => {
    const warehousePath = join(fx.dir, `shard-${index}`, 'warehouse.duckdb');
    shardPaths.push(warehousePath);
    const configPath = fx.writeConfig({ warehousePath }, join(fx.dir, `shard-${index}.config.json`));
    return index === SHARDS - 1
      ? fx.cli(['sync'], { configPath, env: { ...fx.env, VENUE_ETL_SHARD: `${index}/${SHARDS}` } })
      : fx.cli(['sync', '--shard', `${index}/${SHARDS}`], { configPath });
  });
  shardRuns.push(...(await Promise.all(runs)));
});

afterAll(async () => {
  await fx?.close();
});

const sorted = (map: ReadonlyMap<string, unknown>): [string, unknown][] => [...map].sort(([a], [b]) => a.localeCompare(b));

describe('sync --shard I/N', () => {
  it('each worker succeeds and says which part it took', () => {
    for (const [index, run] of shardRuns.entries()) {
      expect(run.code, describeRun(run)).toBe(0);
      const mine = venuesOfShard(fx.venues, { index, count: SHARDS }).length;
      // Every shard has venues of its own in this world (1, 3 and 5 of 9), so each takes part.
      expect(mine).toBeGreaterThan(0);
      expect(run.stdout).toContain(`shard:    ${index}/${SHARDS} (0-based): ${mine} of ${fx.venues.length} venues`);
      expect(run.stdout).toContain(index === 0 ? 'this shard also takes roles and accounts' : 'roles and accounts are taken by shard 0 only');
    }
  });

  it('together hold exactly the series and summary rows of one unsharded run, each row in one shard', async () => {
    const whole = { series: await storedSeries(unsharded, range), summaries: await storedSummaries(unsharded, range) };
    expect(whole.series.size).toBeGreaterThan(0);
    expect(whole.summaries.size).toBeGreaterThan(0);
    const union = { series: new Map<string, unknown>(), summaries: new Map<string, unknown>() };
    for (const [index, path] of shardPaths.entries()) {
      const own = { series: await storedSeries(path, range), summaries: await storedSummaries(path, range) };
      // A shard holds its own venues only.
      const mine = new Set(venuesOfShard(fx.venues, { index, count: SHARDS }));
      for (const key of [...own.series.keys(), ...own.summaries.keys()]) expect(mine.has(key.split('|')[0]!), key).toBe(true);
      for (const kind of ['series', 'summaries'] as const) {
        for (const [key, value] of own[kind]) {
          expect(union[kind].has(key), `${key} in two shards`).toBe(false);
          union[kind].set(key, value);
        }
      }
    }
    expect(sorted(union.series)).toEqual(sorted(whole.series));
    expect(sorted(union.summaries)).toEqual(sorted(whole.summaries));
  });

  it('keeps roles and accounts in shard 0 only, the same as the unsharded run', async () => {
    const roles = await storedRoles(unsharded);
    const accounts = await storedAccounts(unsharded);
    expect(roles.venue.size).toBeGreaterThan(0);
    expect(roles.project.size).toBeGreaterThan(0);
    const first = { roles: await storedRoles(shardPaths[0]!), accounts: await storedAccounts(shardPaths[0]!) };
    expect(sorted(first.roles.venue)).toEqual(sorted(roles.venue));
    expect(sorted(first.roles.project)).toEqual(sorted(roles.project));
    expect(sorted(first.accounts)).toEqual(sorted(accounts));
    for (const path of shardPaths.slice(1)) {
      const other = { roles: await storedRoles(path), accounts: await storedAccounts(path) };
      expect([other.roles.venue.size, other.roles.project.size, other.accounts.size]).toEqual([0, 0, 0]);
    }
  });

  it('records the shard in sync_runs.detail', async () => {
    for (const [index, path] of shardPaths.entries()) {
      const rows = await queryRows(path, `SELECT json_extract_string(detail, '$.shard') AS shard FROM sync_runs WHERE job = 'sync'`);
      expect(rows.map((row) => row.shard)).toEqual([`${index}/${SHARDS}`]);
    }
    const rows = await queryRows(unsharded, `SELECT json_extract_string(detail, '$.shard') AS shard FROM sync_runs WHERE job = 'sync'`);
    expect(rows.map((row) => row.shard)).toEqual([null]);
  });

  it.each([
    [['sync', '--shard', '3/3'], /shard 3 does not exist in 3 shards/],
    [['sync', '--shard', '1/0'], /N must be between 1 and/],
    [['backfill', '--from', '2026-01-01', '--to', '2026-01-02', '--shard', 'one/three'], /--shard must be I\/N/],
  ])('refuses %j with exit 2 and a hint', async (args, message) => {
    const run = await fx.cli(args);
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/--shard 0\/3 for the first of three workers/);
  });

  it('refuses a bad VENUE_ETL_SHARD with exit 2, naming the variable', async () => {
    const run = await fx.cli(['sync'], { env: { ...fx.env, VENUE_ETL_SHARD: '2' } });
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toMatch(/VENUE_ETL_SHARD must be I\/N/);
    expect(run.stderr).toMatch(/VENUE_ETL_SHARD=0\/3/);
  });
});
