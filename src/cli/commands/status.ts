import { ExitCode } from '../../errors/index.js';
import { formatTable, loadNamedSql, runNamedSql, withQuerySource, type QueryResult } from '../../readside/index.js';
import type { Command } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';

/** Each section is a report of sql/reports, so `venue-etl report NAME` shows the same rows. */
const SECTIONS = [
  { report: 'freshness', title: 'Streams: cursors and freshness', empty: 'no cursors yet: run `venue-etl sync`' },
  { report: 'last-runs', title: 'Last runs', empty: 'no runs yet: run `venue-etl sync`' },
  { report: 'failed-slices', title: 'Failed slices of the last run', empty: 'none' },
] as const;

export const statusCommand: Command = {
  name: 'status',
  summary: 'Cursors and freshness per stream, the last runs, and the failed slices of the last run.',
  options: {},
  async run(args, io) {
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const results = await withQuerySource(config, false, async (source) => {
      const out: QueryResult[] = [];
      for (const section of SECTIONS) {
        out.push(await runNamedSql(source.connection, loadNamedSql('reports', section.report), { staleAfterDays: config.sync.staleAfterDays }));
      }
      return out;
    }, { logger });
    const text = SECTIONS.map((section, index) => {
      const result = results[index];
      const body = result.rows.length === 0 ? `${section.empty}\n` : formatTable(result, { footer: false });
      return `${section.title}\n\n${body}`;
    });
    io.stdout.write(`Warehouse ${config.warehouse.path} (stale after ${config.sync.staleAfterDays} days)\n\n${text.join('\n')}`);
    return ExitCode.ok;
  },
};
