import { runDemo } from '../../demo/demo.js';
import { stringOption } from '../args.js';
import type { Command } from '../command.js';
import { commandLogger } from '../context.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Start the built-in simulator, run the nightly job and a Parquet export into DIR (default ./demo-data), print a short report. Needs no config.',
  options: {
    dir: { type: 'string', description: 'where the demo warehouse and Parquet files go (default ./demo-data)', valueName: 'DIR' },
  },
  noConfig: true,
  async run(args, io) {
    // Quiet by default: the demo's output is its report.
    const logger = commandLogger(args, io, undefined, 'warn');
    const result = await runDemo({ dir: stringOption(args, 'dir') ?? 'demo-data', logger, signal: io.signal });
    io.stdout.write(`${result.report}\n`);
    return result.sync.exitCode;
  },
};
