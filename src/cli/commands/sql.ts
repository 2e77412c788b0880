import { ExitCode } from '../../errors/index.js';
import { writeReadOnly, OUTPUT_FORMATS, parseFormat, withQuerySource } from '../../readside/index.js';
import { booleanOption, stringOption } from '../args.js';
import type { Command } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { stdoutWidth } from '../output-format.js';
import { readWatch, TIMEOUT_OPTION } from '../read-watch.js';
import { queryText } from '../query-text.js';

export const sqlCommand: Command = {
  name: 'sql',
  summary: 'Run read-only SQL on the warehouse, or with --parquet on the exported files through views named like the tables.',
  positionals: '["QUERY" | -]',
  maxPositionals: 1,
  options: {
    file: { type: 'string', description: 'read the query from FILE', valueName: 'FILE' },
    format: { type: 'string', description: 'table (default, fits the terminal), csv or json', valueName: 'FORMAT', choices: OUTPUT_FORMATS },
    parquet: { type: 'boolean', description: 'query the Parquet export instead of the warehouse file' },
    timeout: TIMEOUT_OPTION,
  },
  async run(args, io) {
    const query = await queryText(args, io);
    const format = parseFormat(stringOption(args, 'format'));
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const watch = readWatch(args, io, config);
    const output = { out: io.stdout, format, width: stdoutWidth(io) };
    await withQuerySource(config, booleanOption(args, 'parquet'), (source) => writeReadOnly(source.connection, query, output, source.dryRun), {
      logger,
      ...watch,
    });
    return ExitCode.ok;
  },
};
