import { describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/index.js';
import { ConfigError, resolveConfig } from '../../src/config/index.js';
import { nextRuns, resolveSchedules } from '../../src/scheduler/schedules.js';

describe('job schedules', () => {
  it('uses schedule.jobs where given and each job default otherwise', () => {
    const config = resolveConfig({ schedule: { timezone: 'Europe/Warsaw', jobs: { 'nightly-sync': '0 3 * * *' } } }, {});
    const schedules = resolveSchedules(config, JOBS);
    expect(schedules.map((s) => [s.job.name, s.expression, s.timezone])).toEqual([
      ['roles-snapshot', '5 2 * * *', 'Europe/Warsaw'],
      ['nightly-sync', '0 3 * * *', 'Europe/Warsaw'],
      ['parquet-export', '45 2 * * *', 'Europe/Warsaw'],
    ]);
  });

  it('refuses a schedule for a job that does not exist', () => {
    const config = resolveConfig({ schedule: { jobs: { 'nightly-synch': '0 3 * * *' } } }, {});
    expect(() => resolveSchedules(config, JOBS)).toThrow(ConfigError);
    expect(() => resolveSchedules(config, JOBS)).toThrow(/schedule\.jobs\.nightly-synch: no job named "nightly-synch"/);
  });

  it('computes next runs in the configured time zone', () => {
    const runs = nextRuns('0 3 * * *', 'Europe/Warsaw', 2);
    expect(runs).toHaveLength(2);
    // 03:00 in Warsaw is 01:00 or 02:00 UTC depending on daylight saving time.
    for (const run of runs) expect([1, 2]).toContain(run.getUTCHours());
    expect(runs[1]!.getTime() - runs[0]!.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
  });
});
