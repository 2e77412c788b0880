import { ExitCode, UsageError } from '../../errors/index.js';
import { planBackfillRun, runBackfill } from '../../runner/backfill-job.js';
import { booleanOption, dateOption, intOption, listOption, stringOption } from '../args.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import { selectConfigVenues } from '../../venue-names/index.js';
import type { ParsedArgs } from '../command.js';
import { BUILTIN_STREAMS } from '../../catalogue/index.js';
import type { Command } from '../command.js';
import { commandLogger, configPath, loadCommandConfig } from '../context.js';
import { DEFAULT_DAY_HORIZON_DAYS, HistoryGrain, requireApi } from '../../config/index.js';
import { formatRunSummary, runSummaryJson } from '../run-summary.js';
import { shardOption, shardSummary, SHARD_OPTION } from '../shard-option.js';
import { TABLE_OR_JSON_OPTION, stdoutWidth, tableOrJson, writeJson } from '../output-format.js';
import { progressTerminal } from '../terminal.js';
import { formatDuration } from '../../runner/progress.js';
import { pastRunFacts, summaryGrainCosts } from '../../runner/estimate.js';
import { apiUrlOf } from '../../runner/rate-limit-memory.js';
import { backfillGrainCosts } from '../../plan/index.js';

function grainOption(args: ParsedArgs): HistoryGrain | undefined {
  const value = stringOption(args, 'grain');
  if (value === undefined) return undefined;
  const parsed = HistoryGrain.safeParse(value);
  if (!parsed.success)
    throw new UsageError(`--grain takes hour or day, got "${value}"`, 'e.g. venue-etl backfill --from 2026-01-01 --to 2026-01-31 --grain hour');
  return parsed.data;
}

export const backfillCommand: Command = {
  name: 'backfill',
  summary: 'Re-extract a date range in windows; resumable (run the same command again to continue), --dry-run prints the plan.',
  options: {
    from: { type: 'string', description: 'first day (UTC)', valueName: 'DATE' },
    to: { type: 'string', description: 'last day (UTC)', valueName: 'DATE' },
    streams: { type: 'string', description: 'only these streams (default: every analytics stream)', valueName: 'S,S', choices: BUILTIN_STREAMS, list: true },
    venues: venuesOptionSpec('only these venues of scope.venues'),
    shard: SHARD_OPTION,
    'window-days': { type: 'string', description: 'days per slice (default: sync.windowDays)', valueName: 'N' },
    grain: {
      type: 'string',
      description: 'only this grain: hour (history streams by the hour) or day (daily histories and summaries); default: sync.historyGrain',
      valueName: 'hour|day',
      choices: ['hour', 'day'],
    },
    'dry-run': { type: 'boolean', description: 'print the plan (slices, estimated requests and time) and touch nothing' },
    force: { type: 'boolean', description: 'run a backfill that already finished again' },
    format: TABLE_OR_JSON_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const from = dateOption(args, 'from');
    const to = dateOption(args, 'to');
    if (!from || !to) throw new UsageError('backfill needs --from DATE and --to DATE', 'e.g. venue-etl backfill --from 2026-01-01 --to 2026-03-31');
    const config = requireApi(loadCommandConfig(args, io, 'backfill'), configPath(args));
    const logger = commandLogger(args, io, config);
    const streams = listOption(args, 'streams');
    const venues = selectConfigVenues(venuesOption(args), config);
    const windowDays = intOption(args, 'window-days', { min: 1, max: 3660 });
    const grain = grainOption(args);
    const shard = shardOption(args, io.env);
    const options = {
      from,
      to,
      signal: io.signal,
      force: booleanOption(args, 'force'),
      ...(io.hurry ? { hurry: io.hurry } : {}),
      ...(streams ? { streams } : {}),
      ...(venues ? { venues } : {}),
      ...(windowDays ? { windowDays } : {}),
      ...(grain ? { grain } : {}),
      ...(shard ? { shard } : {}),
    };
    if (booleanOption(args, 'dry-run')) {
      const plan = planBackfillRun(config, options);
      const past = await pastRunFacts(config.warehouse.path, plan.backfillId, apiUrlOf(config.api));
      const remaining = past.doneSlices > 0 ? ` (${past.doneSlices} slices already done by an interrupted run: they will be skipped)` : '';
      // Throughput observed by the latest run, when there is one; otherwise an assumed latency.
      const assumedLatencyMs = 200;
      const estimate = past.requestsPerSecond
        ? `estimated time: ${formatDuration(plan.requests / past.requestsPerSecond)} at the ${past.requestsPerSecond.toFixed(1)} requests/s observed in run ${past.fromRun}`
        : `estimated time: ${formatDuration((plan.requests * assumedLatencyMs) / 1000 / config.api.concurrency)} at ${config.api.concurrency} concurrent requests and an assumed ${assumedLatencyMs} ms per request (no earlier run to measure)`;
      // A run shorter than the backfill may not have reached the limit: the limit bounds the time from below.
      const atLimit =
        past.rateLimitPerSecond === undefined
          ? []
          : [
              `at the API's rate limit (${past.rateLimitPerSecond.toFixed(1)} requests/s, found by an earlier run): at least ${formatDuration(plan.requests / past.rateLimitPerSecond)}`,
            ];
      const count = (n: number): string => n.toLocaleString('en-US');
      const lines = [
        `backfill ${plan.backfillId}: ${from} .. ${to}, ${count(plan.slices)} slices, at least ${count(plan.requests)} requests${remaining}`,
        ...backfillGrainCosts(plan.planInputs).map(
          (c) => `  ${c.stream.padEnd(30)} ${c.grain.padEnd(8)} ${count(c.slices).padStart(9)} slices ${count(c.requests).padStart(10)} requests`,
        ),
        estimate,
        ...atLimit,
        ...summaryGrainCosts(plan.planInputs, config.sync.dayHorizonDays ?? DEFAULT_DAY_HORIZON_DAYS).map(
          (c) => `${c.current ? '*' : ' '} ${c.label.padEnd(60)} ${count(c.requests).padStart(10)} requests`,
        ),
        'list endpoints (rating-statistics-summaries) need one more request per extra page; the run also checks the token once.',
        'dry run: nothing was requested or written.',
      ];
      io.stdout.write(`${lines.join('\n')}\n`);
      return ExitCode.ok;
    }
    const tty = progressTerminal(io);
    const result = await runBackfill(config, logger, { ...options, ...(tty ? { progressTty: tty } : {}) });
    const sharding = shard && shardSummary(config, shard, venues);
    if (format === 'json') {
      writeJson(
        io,
        result.alreadyFinished
          ? { job: 'backfill', backfillId: result.backfillId, alreadyFinished: true, exitCode: result.exitCode }
          : { ...runSummaryJson('backfill', result, sharding), backfillId: result.backfillId, alreadyFinished: false, resumedSkipping: result.resumedSkipping },
      );
      return result.exitCode;
    }
    if (result.alreadyFinished) {
      io.stdout.write(`backfill ${result.backfillId} already finished: nothing to do (--force runs it again)\n`);
      return ExitCode.ok;
    }
    if (result.resumedSkipping > 0) io.stdout.write(`backfill ${result.backfillId} resumed: ${result.resumedSkipping} slices were already done\n`);
    // Run again with --force, an interrupted forced backfill would start over instead of continuing.
    const continueHint = options.force ? 'run the same command without --force to continue (with --force it starts over)' : undefined;
    io.stdout.write(formatRunSummary('backfill', result, stdoutWidth(io), sharding, continueHint));
    return result.exitCode;
  },
};
