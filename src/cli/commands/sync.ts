import { UsageError } from '../../errors/index.js';
import { runSync } from '../../runner/sync-job.js';
import { dateOption, listOption } from '../args.js';
import { BUILTIN_STREAMS } from '../../catalogue/index.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import { selectConfigVenues } from '../../venue-names/index.js';
import type { Command, ParsedArgs } from '../command.js';
import { commandLogger, configPath, loadCommandConfig } from '../context.js';
import { requireApi } from '../../config/index.js';
import { formatRunSummary, runSummaryJson } from '../run-summary.js';
import { shardOption, shardSummary, SHARD_OPTION } from '../shard-option.js';
import { TABLE_OR_JSON_OPTION, stdoutWidth, tableOrJson, writeJson } from '../output-format.js';
import { progressTerminal } from '../terminal.js';

export const syncCommand: Command = {
  name: 'sync',
  summary: 'One incremental run (the nightly job): every selected stream and venue from its cursor minus the lookback up to yesterday (UTC).',
  options: {
    streams: { type: 'string', description: 'only these streams (comma-separated)', valueName: 'S,S', choices: BUILTIN_STREAMS, list: true },
    venues: venuesOptionSpec('only these venues of scope.venues'),
    to: { type: 'string', description: 'last day to extract (default: yesterday, UTC)', valueName: 'DATE' },
    // Its first name: backfill, report, dashboard and reset say --to.
    until: { type: 'string', description: 'the same as --to', valueName: 'DATE', hidden: true },
    shard: SHARD_OPTION,
    format: TABLE_OR_JSON_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = requireApi(loadCommandConfig(args, io, 'sync'), configPath(args));
    const logger = commandLogger(args, io, config);
    const streams = listOption(args, 'streams');
    const venues = selectConfigVenues(venuesOption(args), config);
    const until = lastDay(args);
    const shard = shardOption(args, io.env);
    const tty = progressTerminal(io);
    const result = await runSync(config, logger, {
      signal: io.signal,
      ...(tty ? { progressTty: tty } : {}),
      ...(io.hurry ? { hurry: io.hurry } : {}),
      ...(streams ? { streams } : {}),
      ...(venues ? { venues } : {}),
      ...(until ? { until } : {}),
      ...(shard ? { shard } : {}),
    });
    const sharding = shard && shardSummary(config, shard, venues);
    if (format === 'json') writeJson(io, runSummaryJson('sync', result, sharding));
    else io.stdout.write(formatRunSummary('sync', result, stdoutWidth(io), sharding));
    return result.exitCode;
  },
};

/** `--to`, or `--until` (the same option under its first name); both at once must agree. */
function lastDay(args: ParsedArgs): string | undefined {
  const to = dateOption(args, 'to');
  const until = dateOption(args, 'until');
  if (to !== undefined && until !== undefined && to !== until) {
    throw new UsageError(`--to ${to} and --until ${until} disagree: they are the same option`, 'give one of them: --to DATE');
  }
  return to ?? until;
}
