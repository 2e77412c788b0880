import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { jobContext } from '../../src/scheduler/job-context.js';
import type { JobDefinition } from '../../src/scheduler/job.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { nextRuns, resolveSchedules } from '../../src/scheduler/schedules.js';
import { Mutex } from '../../src/warehouse/mutex.js';
import { ManualClock } from './manual-clock.js';

const logger = createLogger({ level: 'silent' });

/** A scheduler with one job on `expression` in `zone`, a clock starting at `start`, and the times the job ran. */
function scheduled(expression: string, zone: string, start: string): { scheduler: Scheduler; clock: ManualClock; ran: string[] } {
  const clock = new ManualClock(Date.parse(start));
  const ran: string[] = [];
  const job: JobDefinition = {
    name: 'nightly-sync',
    description: 'records when it runs',
    defaultSchedule: expression,
    async run() {
      ran.push(new Date(clock.now()).toISOString());
      return { status: 'succeeded', summary: 'ran' };
    },
  };
  const config = resolveConfig({ schedule: { timezone: zone, jobs: { 'nightly-sync': expression } } }, {});
  const scheduler = new Scheduler(
    resolveSchedules(config, [job]),
    (name, signal, hurry) => jobContext(config, logger, signal, hurry, name),
    new Mutex(),
    logger,
    clock,
  );
  return { scheduler, clock, ran };
}

describe('the scheduler across daylight saving changes (injected clock)', () => {
  it('runs a 02:05 Europe/Berlin job once on the spring-forward day, at 03:00 CEST', async () => {
    const { scheduler, clock, ran } = scheduled('5 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z');
    scheduler.start();
    await clock.advanceTo(Date.parse('2026-03-31T12:00:00Z'));
    await scheduler.stop();
    expect(ran).toEqual(['2026-03-28T01:05:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:05:00.000Z', '2026-03-31T00:05:00.000Z']);
  });

  it('runs it once on the fall-back day, when 02:05 is shown twice', async () => {
    const { scheduler, clock, ran } = scheduled('5 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z');
    scheduler.start();
    await clock.advanceTo(Date.parse('2026-10-26T12:00:00Z'));
    await scheduler.stop();
    expect(ran).toEqual(['2026-10-25T00:05:00.000Z', '2026-10-26T01:05:00.000Z']);
  });

  it('says the next run `venue-etl jobs` shows, at every moment', async () => {
    const { scheduler, clock } = scheduled('*/30 * * * *', 'Europe/Berlin', '2026-03-28T22:50:00Z');
    scheduler.start();
    for (let at = Date.parse('2026-03-28T23:00:00Z'); at < Date.parse('2026-03-29T03:00:00Z'); at += 7 * 60_000) {
      await clock.advanceTo(at);
      const [status] = scheduler.status();
      expect(status!.nextRun).toBe(nextRuns('*/30 * * * *', 'Europe/Berlin', 1, new Date(at))[0]!.toISOString());
    }
    await scheduler.stop();
  });

  it('runs a job once for all the times it missed while the machine slept', async () => {
    const { scheduler, clock, ran } = scheduled('0 * * * *', 'UTC', '2026-05-01T00:30:00Z');
    scheduler.start();
    await clock.sleepUntil(Date.parse('2026-05-01T05:10:00Z'));
    await clock.advanceTo(Date.parse('2026-05-01T06:30:00Z'));
    await scheduler.stop();
    expect(ran).toEqual(['2026-05-01T05:10:00.000Z', '2026-05-01T06:00:00.000Z']);
  });
});
