import { ExitCode } from '../../errors/index.js';
import { buildDashboard, checkDashboardRequest, writeDashboardFile } from '../../dashboard/index.js';
import { booleanOption, dateOption, intOption, stringOption } from '../args.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import { checkVenuesWhereNothingIsStored } from '../../venue-names/index.js';
import type { Command } from '../command.js';
import { readWatch } from '../read-watch.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';

export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: 'Write ONE self-contained HTML dashboard of the warehouse (charts, data and code inline; opens offline).',
  options: {
    out: { type: 'string', description: 'the HTML file to write (default dashboard.html)', valueName: 'FILE' },
    venues: venuesOptionSpec(),
    from: {
      type: 'string',
      description: 'first day the file holds, inclusive (UTC; default the first of the month 12 months ago: the last 13 months)',
      valueName: 'DATE',
    },
    to: { type: 'string', description: 'last day the file holds, inclusive (UTC; default the last day held)', valueName: 'DATE' },
    tz: { type: 'string', description: 'IANA time zone of the peak-hours grid (default dashboard.timezone, UTC)', valueName: 'ZONE' },
    top: { type: 'string', description: 'venues named in the ranking before "the rest" (default 10)', valueName: 'N' },
    parquet: { type: 'boolean', description: 'read the Parquet export instead of the warehouse file' },
  },
  async run(args, io) {
    const request = {
      from: dateOption(args, 'from'),
      to: dateOption(args, 'to'),
      venues: venuesOption(args),
      tz: stringOption(args, 'tz'),
      topN: intOption(args, 'top', { min: 1, max: 1000 }),
    };
    // Before the warehouse is opened: a bad argument is exit 2 whether or not the file exists.
    checkDashboardRequest(request);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const parquet = booleanOption(args, 'parquet');
    checkVenuesWhereNothingIsStored(request.venues, config, parquet);
    const started = performance.now();
    const page = await buildDashboard(
      config,
      parquet,
      { ...request, tz: request.tz ?? config.dashboard.timezone, staleAfterDays: config.sync.staleAfterDays },
      { logger, ...readWatch(args, io, config) },
    );
    const path = writeDashboardFile(stringOption(args, 'out') ?? 'dashboard.html', page.html);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.stdout.write(`${path}\n`);
    io.stderr.write(
      `dashboard: ${page.venues} venues, ${page.days} days (${page.daysWithData} with figures)${page.hourly ? ', peak hours from hourly rows' : ', no hourly data'}; ${(Buffer.byteLength(page.html) / 1e6).toFixed(2)} MB in ${seconds}s\n`,
    );
    if (page.daysWithData === 0) {
      // Still a page (it says the same, with the commands), but not a silent one.
      io.stderr.write(
        `dashboard: no daily figures ${request.from || request.to ? `from ${request.from ?? 'the first day'} to ${request.to ?? 'the last day'}` : 'in the last 13 months'}: the page says so; load the days with venue-etl backfill --from DATE --to DATE\n`,
      );
    }
    return ExitCode.ok;
  },
};
