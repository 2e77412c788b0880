import cron from 'node-cron';
import type { Config } from '../config/index.js';
import { ConfigError } from '../config/index.js';
import { CronTimes } from './cron-times.js';
import type { JobDefinition } from './job.js';

export interface JobSchedule {
  readonly job: JobDefinition;
  readonly expression: string;
  readonly timezone: string;
}

/**
 * Each job's cron expression: `schedule.jobs[name]` or the job's default. A name in
 * `schedule.jobs` that is not a job, or an invalid expression, is a config error at start.
 */
export function resolveSchedules(config: Config, jobs: readonly JobDefinition[]): JobSchedule[] {
  const known = new Set(jobs.map((job) => job.name));
  const problems = Object.keys(config.schedule.jobs)
    .filter((name) => !known.has(name))
    .map((name) => ({ path: `schedule.jobs.${name}`, message: `no job named "${name}"; jobs: ${[...known].join(', ')}` }));
  const schedules = jobs.map((job) => ({ job, expression: config.schedule.jobs[job.name] ?? job.defaultSchedule, timezone: config.schedule.timezone }));
  for (const s of schedules) {
    if (!cron.validate(s.expression)) problems.push({ path: `schedule.jobs.${s.job.name}`, message: `"${s.expression}" is not a valid cron expression` });
  }
  if (problems.length > 0) throw new ConfigError('config', problems);
  return schedules;
}

/**
 * Next run times of an expression in a time zone after `after` (default now), without
 * scheduling anything: the times the scheduler of `venue-etl serve` uses.
 */
export function nextRuns(expression: string, timezone: string, count: number, after: Date = new Date()): Date[] {
  const times = new CronTimes(expression, timezone);
  try {
    return times.nextRuns(after.getTime(), count).map((at) => new Date(at));
  } finally {
    times.dispose();
  }
}
