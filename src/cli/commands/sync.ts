import { runSync } from '../../runner/sync-job.js';
import { dateOption, listOption } from '../args.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import { selectConfigVenues } from '../../venue-names/index.js';
import type { Command } from '../command.js';
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
    streams: { type: 'string', description: 'only these streams (comma-separated)', valueName: 'S,S' },
    venues: venuesOptionSpec('only these venues of scope.venues'),
    until: { type: 'string', description: 'last day to extract (default: yesterday, UTC)', valueName: 'DATE' },
    shard: SHARD_OPTION,
    format: TABLE_OR_JSON_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = requireApi(loadCommandConfig(args, io), configPath(args));
    const logger = commandLogger(args, io, config);
    const streams = listOption(args, 'streams');
    const venues = selectConfigVenues(venuesOption(args), config);
    const until = dateOption(args, 'until');
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
