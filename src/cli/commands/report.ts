import { ExitCode } from '../../errors/index.js';
import {
  alignedTable,
  checkSqlParams,
  listNamedSql,
  loadNamedSql,
  OUTPUT_FORMATS,
  parseFormat,
  writeNamedSql,
  selectSourceVenues,
  withQuerySource,
} from '../../readside/index.js';
import { booleanOption, dateOption, stringOption } from '../args.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import { checkVenuesWhereNothingIsStored } from '../../venue-names/index.js';
import type { Command } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { fitLines } from '../../infra/text-wrap.js';
import { stdoutWidth, writeJson } from '../output-format.js';
import { readWatch, TIMEOUT_OPTION } from '../read-watch.js';
import { emptyReportHint } from '../report-hints.js';
import { terminalWidth } from '../terminal.js';

export const reportCommand: Command = {
  name: 'report',
  summary: 'Run a named report from sql/reports/NAME.sql; without NAME, list the reports.',
  positionals: '[NAME]',
  maxPositionals: 1,
  positionalChoices: () => listNamedSql('reports').map((r) => r.name),
  options: {
    venues: venuesOptionSpec(),
    from: { type: 'string', description: 'first day, inclusive (UTC)', valueName: 'DATE' },
    to: { type: 'string', description: 'last day, inclusive (UTC)', valueName: 'DATE' },
    tz: { type: 'string', description: 'IANA time zone the hours and weekdays of peak-hours are read in (default UTC)', valueName: 'ZONE' },
    format: {
      type: 'string',
      description: 'table (default, fits the terminal), csv or json; the list of reports: table or json',
      valueName: 'FORMAT',
      choices: OUTPUT_FORMATS,
    },
    parquet: { type: 'boolean', description: 'run on the Parquet export instead of the warehouse file' },
    timeout: TIMEOUT_OPTION,
  },
  async run(args, io) {
    const name = args.positionals[0];
    const width = stdoutWidth(io);
    if (name === undefined) {
      const listFormat = parseFormat(stringOption(args, 'format'), ['table', 'json']);
      const reports = listNamedSql('reports');
      if (listFormat === 'json') {
        writeJson(
          io,
          reports.map((r) => ({ name: r.name, description: r.description })),
        );
        return ExitCode.ok;
      }
      io.stdout.write(
        alignedTable(
          ['report', 'description'],
          reports.map((r) => [r.name, r.description]),
          { maxCellWidth: 200, ...(width === undefined ? {} : { width }) },
        ),
      );
      io.stdout.write(
        fitLines('\nRun one with `venue-etl report NAME [--venues V,V] [--from DATE] [--to DATE] [--tz ZONE] [--format table|csv|json] [--parquet]`.\n', width),
      );
      return ExitCode.ok;
    }
    const report = loadNamedSql('reports', name);
    const format = parseFormat(stringOption(args, 'format'));
    const from = dateOption(args, 'from');
    const to = dateOption(args, 'to');
    const venues = venuesOption(args);
    const tz = stringOption(args, 'tz');
    // Before the warehouse is opened: a bad argument is exit 2 whether or not the file exists.
    // Venue names and id prefixes need the warehouse: they are resolved on it.
    checkSqlParams({ from, to, tz });
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const parquet = booleanOption(args, 'parquet');
    checkVenuesWhereNothingIsStored(venues, config, parquet);
    const rows = await withQuerySource(
      config,
      parquet,
      async (source) => {
        const ids = await selectSourceVenues(source.connection, venues);
        const params = { from, to, venues: ids, tz, staleAfterDays: config.sync.staleAfterDays, staleTargets: config.freshness.streams };
        return writeNamedSql(source.connection, report, params, { out: io.stdout, format, width });
      },
      { logger, ...readWatch(args, io, config) },
    );
    // On stderr: a script reading the rows from stdout still gets rows only.
    const hint = rows === 0 ? emptyReportHint(report.name, { config, from, to, parquet: booleanOption(args, 'parquet') }) : undefined;
    if (hint !== undefined) io.stderr.write(`${fitLines(hint, terminalWidth(io.stderr, io.env))}\n`);
    return ExitCode.ok;
  },
};
