import { runDemo } from '../../demo/demo.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../log/index.js';
import { UsageError } from '../../errors/index.js';
import { stringOption } from '../args.js';
import type { Command } from '../command.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Start the built-in simulator, run the nightly job and a Parquet export into DIR (default ./demo-data), print a short report. Needs no config.',
  options: {
    dir: { type: 'string', description: 'where the demo warehouse and Parquet files go (default ./demo-data)', valueName: 'DIR' },
  },
  noConfig: true,
  async run(args, io) {
    const level = stringOption(args, 'log-level') ?? 'warn';
    if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
    const logger = createLogger({ level: level as LogLevel, destination: io.stderr });
    const result = await runDemo({ dir: stringOption(args, 'dir') ?? 'demo-data', logger, signal: io.signal });
    io.stdout.write(`${result.report}\n`);
    return result.sync.exitCode;
  },
};
