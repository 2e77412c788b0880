import { ExitCode, UsageError } from '../../errors/index.js';
import { JOBS } from '../../../jobs/index.js';
import { nextRuns, resolveSchedules } from '../../scheduler/schedules.js';
import { formatInZone } from '../../scheduler/zoned-time.js';
import type { Command } from '../command.js';
import { loadCommandConfig } from '../context.js';
import { hanging } from '../../infra/text-wrap.js';
import { stdoutWidth, TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';

export const jobsCommand: Command = {
  name: 'jobs',
  summary:
    'List the scheduled jobs of jobs/ with their schedule (schedule.jobs or the default) and next runs, in schedule.timezone (daylight saving time included).',
  options: {
    after: { type: 'string', description: 'show the runs after this instant instead of now (ISO 8601 with Z or an offset)', valueName: 'TIME' },
    format: TABLE_OR_JSON_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const after = instantOption(args.values.after);
    const config = loadCommandConfig(args, io, 'jobs');
    const jobs = resolveSchedules(config, JOBS).map((s) => ({
      name: s.job.name,
      schedule: s.expression,
      description: s.job.description,
      // The scheduler's own computation: what `serve` will do, also across a clock change.
      next: nextRuns(s.expression, s.timezone, 3, after).map((d) => formatInZone(d.getTime(), s.timezone)),
    }));
    if (format === 'json') {
      writeJson(io, { timezone: config.schedule.timezone, jobs });
      return ExitCode.ok;
    }
    const width = stdoutWidth(io);
    const lines = [`time zone: ${config.schedule.timezone}`, ''];
    for (const job of jobs) {
      lines.push(hanging(`${job.name.padEnd(16)} ${job.schedule.padEnd(16)} `, job.description, width));
      lines.push(hanging(`${''.padEnd(16)} next: `, job.next.join(', '), width));
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
