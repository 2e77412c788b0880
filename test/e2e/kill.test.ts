/**
 * `kill -9` of a nightly sync at seeded moments, each re-run starting from what the killed one
 * left: the final warehouse must equal a clean run's, row for row, with no duplicate keys.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
  todayUtc,
  type CliResult,
  type Fixture,
} from './harness.js';
import { expectedSeries, expectedSummaries, SERIES, storedSeries, storedSummaries, SUMMARY_KIND } from './truth.js';

const DAYS = 16;
let fx: Fixture;

beforeAll(async () => {
  assertBuilt();
  // Latency makes a run last about two seconds, so kills land in every phase of it.
  fx = await startFixture({
    sim: { seed: 21, venues: 2, days: 40, latencyMs: 40 },
    config: { sync: { startDate: addDays(todayUtc(), -DAYS), windowDays: 7 } },
  });
});
afterAll(async () => {
  await fx?.close();
});

it('a sync killed at random moments and run again equals a clean run', async () => {
  const cleanConfig = fx.writeConfig({ warehousePath: join(fx.dir, 'clean', 'warehouse.duckdb') }, join(fx.dir, 'clean.config.json'));
  const clean = await fx.cli(['sync'], { configPath: cleanConfig });
  expect(clean.code, describeRun(clean)).toBe(0);
  const cleanPath = join(fx.dir, 'clean', 'warehouse.duckdb');

  const random = seededRandom(8);
  const killed: CliResult[] = [];
  const left: string[] = [];
  const afterKill = async (run: CliResult) => {
    killed.push(run);
    if (!run.killed) expect(run.code, describeRun(run)).toBe(0);
    if (!existsSync(fx.warehousePath)) return left.push('no warehouse file yet');
    // Killed while the first open was creating the schema: a file without tables.
    const [schema] = await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'sync_cursors'`);
    if (schema!.n === 0) return left.push('an empty file (schema not committed)');
    const [state] = await queryRows(
      fx.warehousePath,
      `SELECT (SELECT count(*) FROM series_points)::INTEGER AS points, (SELECT count(*) FROM summary_values)::INTEGER AS summaries, (SELECT count(*) FROM sync_cursors)::INTEGER AS cursors`,
    );
    left.push(`${state!.points} points, ${state!.summaries} summaries, ${state!.cursors} cursors`);
  };
  for (let i = 0; i < 5; i++) {
    if (i % 2 === 0) {
      // A moment in time: anywhere from process start-up (before the warehouse is even open) to
      // the end of a clean run.
      await afterKill(await fx.cli(['sync'], { killAfterMs: Math.round(200 + random() * (clean.durationMs - 200)) }));
    } else {
      // A moment in work, whatever the machine's speed: right after the N-th API request. Even a
      // run that has only the lookback left makes more than 40.
      const requests = 5 + Math.floor(random() * 35);
      await afterKill(await fx.cli(['sync', '--log-level', 'debug'], { killWhenStderr: /"api request"/, killAfterMatches: requests }));
    }
  }
  expect(killed.filter((r) => r.killed).length).toBeGreaterThanOrEqual(3);

  const final = await fx.cli(['sync']);
  expect(final.code, describeRun(final)).toBe(0);

  expect(await checksums(fx.warehousePath, CONTENT_COLUMNS)).toEqual(await checksums(cleanPath, CONTENT_COLUMNS));
  expect(await duplicateKeys(fx.warehousePath)).toEqual({ series: 0, summaries: 0, cursors: 0 });
  const range = { venues: fx.venues, streams: [...SERIES, ...SUMMARY_KIND], from: addDays(todayUtc(), -DAYS), to: addDays(todayUtc(), -1) };
  expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range))).toEqual(NO_DIFF);
  expect(diffMaps(await storedSummaries(fx.warehousePath, range), expectedSummaries(fx.sim, range))).toEqual(NO_DIFF);
  // Runs a kill left 'running' were marked failed by the next run; none is left running.
  const runs = await runsOf(fx.warehousePath);
  expect(runs.filter((r) => r.status === 'running')).toEqual([]);
  expect(runs.at(-1)).toMatchObject({ status: 'succeeded' });
  console.log(
    `clean sync ${clean.durationMs} ms; killed syncs (ms after start → what the warehouse held):\n${killed
      .map((r, i) => `  ${r.killed ? `killed at ${r.durationMs}` : `finished in ${r.durationMs}`} → ${left[i]}`)
      .join('\n')}`,
  );
});
