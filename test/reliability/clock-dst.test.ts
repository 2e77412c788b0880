/**
 * Daylight saving time: jobs whose time falls in a skipped hour (spring forward) or a repeated
 * one (fall back), in several zones. The scheduler of `venue-etl serve` runs with an injected
 * clock through each change (no real waiting); its runs must match the rule — a skipped time
 * runs once at the first valid time after it, a repeated time once, the first time. node-cron
 * 4.6's own next runs (read with a fake Date) are measured beside it: they are why the fire
 * times are computed by venue-etl.
 */
import cron from 'node-cron';
import { afterEach, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { jobContext } from '../../src/scheduler/job-context.js';
import type { JobDefinition } from '../../src/scheduler/job.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { resolveSchedules } from '../../src/scheduler/schedules.js';
import { formatInZone } from '../../src/scheduler/zoned-time.js';
import { Mutex } from '../../src/warehouse/mutex.js';
import { ManualClock } from '../scheduler/manual-clock.js';
import { reportFigure, reportTable } from './figures.js';

const logger = createLogger({ level: 'silent' });

interface Case {
  readonly name: string;
  readonly zone: string;
  readonly expression: string;
  /** The local day of the change, and the runs expected on it (local times with offset). */
  readonly day: string;
  readonly expected: readonly string[];
}

const CASES: readonly Case[] = [
  { name: 'spring forward, daily 02:05', zone: 'Europe/Berlin', expression: '5 2 * * *', day: '2026-03-29', expected: ['2026-03-29T03:00:00+02:00'] },
  { name: 'fall back, daily 02:05', zone: 'Europe/Berlin', expression: '5 2 * * *', day: '2026-10-25', expected: ['2026-10-25T02:05:00+02:00'] },
  {
    name: 'spring forward, every 30 min (02:00–02:59)',
    zone: 'Europe/Berlin',
    expression: '*/30 2 * * *',
    day: '2026-03-29',
    expected: ['2026-03-29T03:00:00+02:00'],
  },
  {
    name: 'fall back, every 30 min (02:00–02:59)',
    zone: 'Europe/Berlin',
    expression: '*/30 2 * * *',
    day: '2026-10-25',
    expected: ['2026-10-25T02:00:00+02:00', '2026-10-25T02:30:00+02:00'],
  },
  { name: 'spring forward, daily 02:30', zone: 'America/New_York', expression: '30 2 * * *', day: '2026-03-08', expected: ['2026-03-08T03:00:00-04:00'] },
  { name: 'fall back, daily 01:30', zone: 'America/New_York', expression: '30 1 * * *', day: '2026-11-01', expected: ['2026-11-01T01:30:00-04:00'] },
  { name: '30-minute change, daily 02:15', zone: 'Australia/Lord_Howe', expression: '15 2 * * *', day: '2026-10-04', expected: ['2026-10-04T02:30:00+11:00'] },
  { name: 'no DST, daily 02:05', zone: 'Asia/Kolkata', expression: '5 2 * * *', day: '2026-03-29', expected: ['2026-03-29T02:05:00+05:30'] },
];

afterEach(() => {
  vi.useRealTimers();
});

/** Runs of the scheduler (injected clock) whose local date is `day`. */
async function schedulerRuns(c: Case): Promise<string[]> {
  const dayStart = Date.parse(`${c.day}T00:00:00Z`);
  const clock = new ManualClock(dayStart - 2 * 86_400_000);
  const ran: string[] = [];
  const job: JobDefinition = {
    name: 'nightly-sync',
    description: 'records its runs',
    defaultSchedule: c.expression,
    async run() {
      ran.push(formatInZone(clock.now(), c.zone));
      return { status: 'succeeded', summary: '' };
    },
  };
  const config = resolveConfig({ schedule: { timezone: c.zone, jobs: { 'nightly-sync': c.expression } } }, {});
  const scheduler = new Scheduler(
    resolveSchedules(config, [job]),
    (name, signal, hurry) => jobContext(config, logger, signal, hurry, name),
    new Mutex(),
    logger,
    clock,
  );
  scheduler.start();
  await clock.advanceTo(dayStart + 2 * 86_400_000);
  await scheduler.stop();
  return ran.filter((local) => local.startsWith(c.day));
}

/** node-cron 4.6's own next runs from two days before, with Date faked to that moment. */
function nodeCronRuns(c: Case): string[] {
  vi.useFakeTimers({ now: Date.parse(`${c.day}T00:00:00Z`) - 2 * 86_400_000, toFake: ['Date'] });
  const task = cron.createTask(c.expression, () => undefined, { timezone: c.zone });
  try {
    return task
      .getNextRuns(12)
      .map((d) => formatInZone(d.getTime(), c.zone))
      .filter((local) => local.startsWith(c.day));
  } finally {
    void task.destroy();
    vi.useRealTimers();
  }
}

it('runs each job once at the right time on the days the clocks change', async () => {
  const rows = [];
  for (const c of CASES) {
    const ours = await schedulerRuns(c);
    const theirs = nodeCronRuns(c);
    rows.push({ case: `${c.zone} ${c.name}`, expected: c.expected.join(' '), venueEtl: ours.join(' ') || '(none)', nodeCron: theirs.join(' ') || '(none)' });
    expect(ours, c.name).toEqual(c.expected);
  }
  reportTable('DST: runs on the day of the change', rows);
  reportFigure('dst', {
    cases: rows.length,
    venueEtlRight: rows.filter((r) => r.venueEtl === r.expected).length,
    nodeCronSameTimes: rows.filter((r) => r.nodeCron === r.expected).length,
    // Fall back: node-cron runs once too, but in Berlin at the second showing of the time.
    nodeCronSameCount: rows.filter((r) => r.nodeCron.split(' ').length === r.expected.split(' ').length && r.nodeCron !== '(none)').length,
  });
});
