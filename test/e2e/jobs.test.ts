import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from './harness.js';

let dir: string;
let config: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-jobs-'));
  config = join(dir, 'venue-etl.config.json');
  writeFileSync(config, JSON.stringify({ schedule: { timezone: 'Europe/Berlin', jobs: { 'nightly-sync': '5 2 * * *', 'parquet-export': '45 2 * * *' } } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('venue-etl jobs', () => {
  it('shows the runs the scheduler makes across a clock change, in the schedule time zone', async () => {
    const spring = await runCli(['jobs', '--after', '2026-03-28T12:00:00Z', '--config', config]);
    expect(spring.code, describeRun(spring)).toBe(0);
    // 02:05 does not exist on 2026-03-29 in Berlin: the run comes at 03:00 CEST, once.
    expect(spring.stdout).toMatch(/nightly-sync[^\n]*\n\s+next: 2026-03-29T03:00:00\+02:00, 2026-03-30T02:05:00\+02:00, 2026-03-31T02:05:00\+02:00/);
    const autumn = await runCli(['jobs', '--after', '2026-10-24T12:00:00Z', '--config', config]);
    expect(autumn.stdout).toMatch(/nightly-sync[^\n]*\n\s+next: 2026-10-25T02:05:00\+02:00, 2026-10-26T02:05:00\+01:00, 2026-10-27T02:05:00\+01:00/);
  });

  it('refuses an --after that is not an instant (exit 2)', async () => {
    const bad = await runCli(['jobs', '--after', '2026-03-28', '--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--after must be an instant/);
  });
});
