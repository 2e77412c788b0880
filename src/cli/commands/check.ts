import { ExitCode } from '../../errors/index.js';
import { alignedTable, jsonRows, listNamedSql, loadNamedSql, runChecks, writeNamedSql, withQuerySource, type CheckResult } from '../../readside/index.js';
import { booleanOption, stringOption } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { fitLines } from '../../infra/text-wrap.js';
import { stdoutWidth, TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';
import { readWatch, TIMEOUT_OPTION } from '../read-watch.js';
import { checkHint, type CheckHint } from '../check-hints.js';
import { commandLines } from '../command-lines.js';

export const checkCommand: Command = {
  name: 'check',
  summary:
    'Data-quality checks (sql/checks/*.sql): series gaps, duplicate keys, stale streams, summaries vs series. Exit 1 when one fails. With NAME: every row that check finds.',
  positionals: '[NAME]',
  maxPositionals: 1,
  positionalChoices: () => listNamedSql('checks').map((c) => c.name),
  options: {
    parquet: { type: 'boolean', description: 'check the Parquet export instead of the warehouse file' },
    format: TABLE_OR_JSON_OPTION,
    timeout: TIMEOUT_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const name = args.positionals[0];
    const check = name === undefined ? undefined : loadNamedSql('checks', name);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const params = {
      staleAfterDays: config.sync.staleAfterDays,
      staleTargets: config.freshness.streams,
      ...(config.sync.streams ? { streams: config.sync.streams } : {}),
    };
    const parquet = booleanOption(args, 'parquet');
    const watch = { logger, ...readWatch(args, io, config) };
    if (check !== undefined) {
      // One check, every row it finds (the table of all checks shows the first only).
      const output = { out: io.stdout, format, width: stdoutWidth(io) };
      const rows = await withQuerySource(config, parquet, (source) => writeNamedSql(source.connection, check, params, output), watch);
      return rows === 0 ? ExitCode.ok : ExitCode.failed;
    }
    const results = await withQuerySource(config, parquet, (source) => runChecks(source.connection, params), watch);
    const bad = results.filter((r) => r.status !== 'ok');
    for (const result of bad) logger.warn({ check: result.name, status: result.status, rows: result.rows }, result.description);
    const hints = new Map(
      bad.filter((r) => r.result).map((r) => [r.name, checkHint(r.name, jsonRows(r.result!), { config: stringOption(args, 'config'), parquet })]),
    );
    if (format === 'json') {
      writeJson(io, {
        passed: bad.length === 0,
        checks: results.map((r) => ({ name: r.name, description: r.description, status: r.status, rows: r.rows, sample: r.sample, ...hints.get(r.name) })),
      });
    } else writeTable(io, results, hints);
    return bad.length === 0 ? ExitCode.ok : ExitCode.failed;
  },
};

function writeTable(io: CommandIo, results: readonly CheckResult[], hints: ReadonlyMap<string, CheckHint>): void {
  const width = stdoutWidth(io);
  const bad = results.filter((r) => r.status !== 'ok');
  io.stdout.write(
    alignedTable(
      ['check', 'status', 'rows found', 'sample'],
      results.map((r) => [r.name, r.status === 'ok' ? 'ok' : r.status.toUpperCase(), String(r.rows), r.sample]),
      { rightAlign: [false, false, true, false], maxCellWidth: 140, ...(width === undefined ? {} : { width }) },
    ),
  );
  const summary = bad.length === 0 ? `\nall ${results.length} checks passed\n` : `\n${bad.length} of ${results.length} checks did not pass\n`;
  io.stdout.write(fitLines(summary, width));
  for (const [name, hint] of hints) io.stdout.write(`${hintLines(name, hint, width).join('\n')}\n`);
}

/** `series-gaps:` then the command listing its rows and the one fixing them, each copyable whole. */
function hintLines(name: string, hint: CheckHint, width: number | undefined): string[] {
  return [
    '',
    `${name}:`,
    fitLines('  every row:', width),
    ...commandLines(hint.list, '    ', width),
    ...(hint.fix === undefined
      ? []
      : [fitLines(`  to fix it${hint.note === undefined ? '' : ` (${hint.note})`}:`, width), ...commandLines(hint.fix, '    ', width)]),
  ];
}
