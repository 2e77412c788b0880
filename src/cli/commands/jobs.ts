import { ExitCode, UsageError } from '../../errors/index.js';
import { JOBS } from '../../../jobs/index.js';
import { nextRuns, resolveSchedules } from '../../scheduler/schedules.js';
import { formatInZone } from '../../scheduler/zoned-time.js';
import type { Command } from '../command.js';
import { loadCommandConfig } from '../context.js';

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'List the scheduled jobs of jobs/ with their schedule (schedule.jobs or the default) and next runs, in schedule.timezone (daylight saving time included).',
  options: {
    after: { type: 'string', description: 'show the runs after this instant instead of now (ISO 8601 with Z or an offset)', valueName: 'TIME' },
  },
  async run(args, io) {
    const after = instantOption(args.values.after);
    const config = loadCommandConfig(args, io);
    const schedules = resolveSchedules(config, JOBS);
    const lines = [`time zone: ${config.schedule.timezone}`, ''];
    for (const s of schedules) {
      // The scheduler's own computation: what `serve` will do, also across a clock change.
      const next = nextRuns(s.expression, s.timezone, 3, after).map((d) => formatInZone(d.getTime(), s.timezone));
      lines.push(`${s.job.name.padEnd(16)} ${s.expression.padEnd(16)} ${s.job.description}`);
      lines.push(`${''.padEnd(16)} next: ${next.join(', ')}`);
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  },
};

function instantOption(value: string | boolean | undefined): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--after must be an instant like 2026-03-28T12:00:00Z, got "${value}"`);
  return new Date(ms);
}
