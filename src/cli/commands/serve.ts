import { once } from 'node:events';
import { ExitCode } from '../../errors/index.js';
import { JOBS } from '../../../jobs/index.js';
import { startServe } from '../../scheduler/serve.js';
import { formatInZone } from '../../scheduler/zoned-time.js';
import type { Command } from '../command.js';
import { commandLogger, loadCommandConfig } from '../context.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Long-running: the cron schedule of the jobs in jobs/, the upsert event receiver and GET /healthz. Stops gracefully on SIGINT/SIGTERM.',
  options: {},
  async run(args, io) {
    const config = loadCommandConfig(args, io, 'serve');
    const logger = commandLogger(args, io, config);
    const serve = await startServe(config, JOBS, logger);
    io.stdout.write(`venue-etl serve (PID ${process.pid})${serve.url ? `: receiver and health at ${serve.url}` : ''}\n`);
    if (serve.dashboardUrl) io.stdout.write(`  dashboard at ${serve.dashboardUrl}/\n`);
    for (const job of serve.scheduler.status()) {
      io.stdout.write(`  ${job.name.padEnd(16)} ${job.schedule.padEnd(16)} next ${job.nextRun ? formatInZone(Date.parse(job.nextRun), job.timezone) : '-'}\n`);
    }
    if (!io.signal.aborted) await once(io.signal, 'abort');
    await serve.stop({ reason: io.signal.reason, ...(io.hurry ? { hurry: io.hurry } : {}) });
    return ExitCode.ok;
  },
};
