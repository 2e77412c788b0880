import { ExitCode } from '../../errors/index.js';
import { JOBS } from '../../../jobs/index.js';
import { nextRuns, resolveSchedules } from '../../scheduler/schedules.js';
import type { Command } from '../command.js';
import { loadCommandConfig } from '../context.js';

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'List the scheduled jobs of jobs/ with their schedule (schedule.jobs or the default) and next runs.',
  options: {},
  async run(args, io) {
    const config = loadCommandConfig(args, io);
    const schedules = resolveSchedules(config, JOBS);
    const lines = [`time zone: ${config.schedule.timezone}`, ''];
    for (const s of schedules) {
      const next = nextRuns(s.expression, s.timezone, 3).map((d) => d.toISOString().replace('.000Z', 'Z'));
      lines.push(`${s.job.name.padEnd(16)} ${s.expression.padEnd(16)} ${s.job.description}`);
      lines.push(`${''.padEnd(16)} next: ${next.join(', ')}`);
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  },
};
