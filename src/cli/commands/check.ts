import { ExitCode } from '../../errors/index.js';
import { alignedTable, runChecks, withQuerySource } from '../../readside/index.js';
import { booleanOption } from '../args.js';
import type { Command } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { fitLines } from '../../infra/text-wrap.js';
import { stdoutWidth, TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';
import { readWatch, TIMEOUT_OPTION } from '../read-watch.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'Data-quality checks (sql/checks/*.sql): series gaps, duplicate keys, stale streams, summaries vs series. Exit 1 when one fails.',
  options: {
    parquet: { type: 'boolean', description: 'check the Parquet export instead of the warehouse file' },
    format: TABLE_OR_JSON_OPTION,
    timeout: TIMEOUT_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const results = await withQuerySource(
      config,
      booleanOption(args, 'parquet'),
      (source) =>
        runChecks(source.connection, {
          staleAfterDays: config.sync.staleAfterDays,
          staleTargets: config.freshness.streams,
          ...(config.sync.streams ? { streams: config.sync.streams } : {}),
        }),
      { logger, ...readWatch(args, io, config) },
    );
    const bad = results.filter((r) => r.status !== 'ok');
    for (const result of bad) logger.warn({ check: result.name, status: result.status, rows: result.rows }, result.description);
    if (format === 'json') {
      writeJson(io, {
        passed: bad.length === 0,
        checks: results.map((r) => ({ name: r.name, description: r.description, status: r.status, rows: r.rows, sample: r.sample })),
      });
      return bad.length === 0 ? ExitCode.ok : ExitCode.failed;
    }
    const width = stdoutWidth(io);
    io.stdout.write(
      alignedTable(
        ['check', 'status', 'rows found', 'sample'],
        results.map((r) => [r.name, r.status === 'ok' ? 'ok' : r.status.toUpperCase(), String(r.rows), r.sample]),
        { rightAlign: [false, false, true, false], maxCellWidth: 140, ...(width === undefined ? {} : { width }) },
      ),
    );
    io.stdout.write(
      fitLines(
        bad.length === 0
          ? `\nall ${results.length} checks passed\n`
          : `\n${bad.length} of ${results.length} checks did not pass; \`venue-etl sql\` with the query in sql/checks/<check>.sql lists every row\n`,
        width,
      ),
    );
    return bad.length === 0 ? ExitCode.ok : ExitCode.failed;
  },
};
