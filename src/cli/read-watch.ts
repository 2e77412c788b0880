import type { ReadSideConfig } from '../config/index.js';
import { intOption } from './args.js';
import type { CommandIo, OptionSpec, ParsedArgs } from './command.js';

/** `--timeout SECONDS` of sql, report and check: query.timeoutSeconds for one run. */
export const TIMEOUT_OPTION: OptionSpec = {
  type: 'string',
  description: 'stop the query after this many seconds (default query.timeoutSeconds, 300)',
  valueName: 'SECONDS',
};

/**
 * What stops a read command's query (docs/lake.md, "Read limits"): SIGINT/SIGTERM (the CLI's
 * abort signal) and its time limit, `--timeout` or query.timeoutSeconds.
 */
export function readWatch(args: ParsedArgs, io: CommandIo, config: Pick<ReadSideConfig, 'query'>): { signal: AbortSignal; timeoutMs: number } {
  const seconds = intOption(args, 'timeout', { min: 1, max: 86_400 }) ?? config.query.timeoutSeconds;
  return { signal: io.signal, timeoutMs: seconds * 1000 };
}
