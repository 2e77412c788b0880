/**
 * What a new user meets after the first sync, through the built CLI against the simulator: the
 * same option names across commands, output a script can read, hints that say what to run next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';

let fx: Fixture;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 3, days: 60 }, config: { sync: { startDate: addDays(todayUtc(), -20), windowDays: 5 } } });
});
afterAll(async () => fx?.close());

describe('sync --to', () => {
  it('is the last day, as in backfill; --until, its first name, still works and must agree', async () => {
    const last = addDays(todayUtc(), -3);
    const run = await fx.cli(['sync', '--to', last]);
    expect(run.code, describeRun(run)).toBe(0);
    const [recorded] = await queryRows(fx.warehousePath, `SELECT detail->>'until' AS until FROM sync_runs ORDER BY started_at DESC LIMIT 1`);
    expect(recorded!.until).toBe(last);
    const help = await fx.cli(['sync', '--help']);
    expect(help.stdout).toContain('--to DATE');
    expect(help.stdout).not.toContain('--until');
    const both = await fx.cli(['sync', '--to', last, '--until', addDays(last, -1)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('disagree');
  });
});
