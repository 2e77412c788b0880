/**
 * The harness's one clock: the fixtures, the simulator and the CLI child all read the tests'
 * day (TEST_NOW), not the machine's clock at the moment each of them looks, so a run that
 * crosses midnight UTC sees one day.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, TEST_NOW, todayUtc, type Fixture } from './harness.js';

let fx: Fixture;
beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 1, days: 5 }, config: { sync: { startDate: addDays(todayUtc(), -2), streams: ['venue-devices-history'] } } });
});
afterAll(async () => {
  await fx?.close();
});

it('the CLI and the simulator run on the tests’ clock: no skew, yesterday of the tests’ day is the last complete day', async () => {
  expect(TEST_NOW.slice(0, 10)).toBe(todayUtc());
  const run = await fx.cli(['sync']);
  expect(run.code, describeRun(run)).toBe(0);
  const [row] = await queryRows(fx.warehousePath, `SELECT detail::VARCHAR AS d FROM sync_runs`);
  const clock = (JSON.parse(String(row?.d)) as { clock: Record<string, unknown> }).clock;
  expect(clock).toMatchObject({
    machine: new Date(TEST_NOW).toISOString(),
    api: new Date(TEST_NOW).toISOString(),
    skewSeconds: 0,
    lastCompleteDay: addDays(todayUtc(), -1),
  });
});
