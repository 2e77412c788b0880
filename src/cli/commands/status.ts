import { ExitCode } from '../../errors/index.js';
import { formatTable, jsonRows, loadNamedSql, runNamedSql, withQuerySource, type QueryResult } from '../../readside/index.js';
import type { Command } from '../command.js';
import { readWatch } from '../read-watch.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { fitLines } from '../../infra/text-wrap.js';
import { stdoutWidth, TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';

/** Each section is a report of sql/reports, so `venue-etl report NAME` shows the same rows. */
const SECTIONS = [
  { report: 'freshness', key: 'streams', title: 'Streams: cursors and freshness', empty: 'no cursors yet: run `venue-etl sync`' },
  { report: 'last-runs', key: 'lastRuns', title: 'Last runs', empty: 'no runs yet: run `venue-etl sync`' },
  { report: 'failed-slices', key: 'failedSlices', title: 'Failed slices of the last run', empty: 'none' },
] as const;

export const statusCommand: Command = {
  name: 'status',
  summary: 'Cursors and freshness per stream, the last runs, and the failed slices of the last run.',
  options: { format: TABLE_OR_JSON_OPTION },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const results = await withQuerySource(
      config,
      false,
      async (source) => {
        const out: QueryResult[] = [];
        for (const section of SECTIONS) {
          out.push(await runNamedSql(source.connection, loadNamedSql('reports', section.report), { staleAfterDays: config.sync.staleAfterDays }));
        }
        return out;
      },
      { logger, ...readWatch(args, io, config) },
    );
    if (format === 'json') {
      writeJson(io, {
        warehouse: config.warehouse.path,
        staleAfterDays: config.sync.staleAfterDays,
        ...Object.fromEntries(SECTIONS.map((section, index) => [section.key, jsonRows(results[index])])),
      });
      return ExitCode.ok;
    }
    const width = stdoutWidth(io);
    const text = SECTIONS.map((section, index) => {
      const result = results[index];
      const body = result.rows.length === 0 ? `${section.empty}\n` : formatTable(result, { footer: false, ...(width === undefined ? {} : { width }) });
      return `${section.title}\n\n${body}`;
    });
    io.stdout.write(fitLines(`Warehouse ${config.warehouse.path} (stale after ${config.sync.staleAfterDays} days)\n\n${text.join('\n')}`, width));
    return ExitCode.ok;
  },
};
