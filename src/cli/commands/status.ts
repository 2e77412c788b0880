import { codeOf, ExitCode } from '../../errors/index.js';
import { formatTable, jsonRows, loadNamedSql, runNamedSql, withQuerySource, type QueryResult, type ResultColumn } from '../../readside/index.js';
import type { Command } from '../command.js';
import { readWatch } from '../read-watch.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { fitLines } from '../../infra/text-wrap.js';
import { stdoutWidth, TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';
import { formatRunState, readRunState, type FoundRunState } from '../../run-state/index.js';
import { readDeliveries } from '../../notify/index.js';
import { alertLines } from '../alert-lines.js';

/** Each section is a report of sql/reports, so `venue-etl report NAME` shows the same rows. */
const SECTIONS = [
  { report: 'freshness', key: 'streams', title: 'Streams: cursors and freshness', empty: 'no cursors yet: run `venue-etl sync`' },
  { report: 'last-runs', key: 'lastRuns', title: 'Last runs', empty: 'no runs yet: run `venue-etl sync`' },
  { report: 'failed-slices', key: 'failedSlices', title: 'Failed slices of the last run', empty: 'none' },
] as const;

/** While a live run holds the warehouse, its run-state file answers at once instead of after the usual wait. */
const WAIT_WHILE_RUNNING_MS = 1_000;

/**
 * A timestamp, a date, a number or an id split across two lines reads as two values: only the
 * text of stream names, jobs and messages wraps; a table that cannot fit so is printed as blocks.
 */
const keepWhole = (column: ResultColumn): boolean => column.type.toString() !== 'VARCHAR' || /(^|_)id$/.test(column.name);

export const statusCommand: Command = {
  name: 'status',
  summary:
    'Cursors and freshness per stream, the last runs, the failed slices of the last run, and the last alerts; the progress of a run that holds the warehouse.',
  options: { format: TABLE_OR_JSON_OPTION },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const path = config.warehouse.path;
    const running = readRunState(path);
    const deliveries = readDeliveries(path, 5);
    let results: QueryResult[];
    try {
      results = await withQuerySource(
        config,
        false,
        async (source) => {
          const out: QueryResult[] = [];
          const params = { staleAfterDays: config.sync.staleAfterDays, staleTargets: config.freshness.streams };
          for (const section of SECTIONS) out.push(await runNamedSql(source.connection, loadNamedSql('reports', section.report), params));
          return out;
        },
        { logger, ...readWatch(args, io, config), ...(running?.alive ? { waitMs: WAIT_WHILE_RUNNING_MS } : {}) },
      );
    } catch (error) {
      if (codeOf(error) !== 'VENUE_WAREHOUSE_LOCKED' || running === undefined) throw error;
      return showLocked(io, format, path, running, deliveries);
    }
    if (format === 'json') {
      writeJson(io, {
        warehouse: path,
        staleAfterDays: config.sync.staleAfterDays,
        ...Object.fromEntries(SECTIONS.map((section, index) => [section.key, jsonRows(results[index])])),
        alerts: deliveries,
        ...(running ? { runState: { ...running.state, alive: running.alive } } : {}),
      });
      return ExitCode.ok;
    }
    const width = stdoutWidth(io);
    const text = SECTIONS.map((section, index) => {
      const result = results[index];
      const body =
        result.rows.length === 0 ? `${section.empty}\n` : formatTable(result, { footer: false, keepWhole, ...(width === undefined ? {} : { width }) });
      return `${section.title}\n\n${body}`;
    });
    const alerts = alertLines(deliveries);
    const left = running && running.alive === false ? `\n${formatRunState(running)}` : '';
    io.stdout.write(fitLines(`Warehouse ${path} (stale after ${config.sync.staleAfterDays} days)\n\n${text.join('\n')}${alerts}${left}`, width));
    return ExitCode.ok;
  },
};

function showLocked(
  io: Parameters<Command['run']>[1],
  format: 'table' | 'json',
  path: string,
  running: FoundRunState,
  deliveries: ReturnType<typeof readDeliveries>,
): ExitCode {
  if (format === 'json') {
    writeJson(io, { warehouse: path, locked: true, runState: { ...running.state, alive: running.alive }, alerts: deliveries });
    return ExitCode.ok;
  }
  io.stdout.write(
    `Warehouse ${path} is held by a running job; its progress (the run-state file beside it):\n\n${formatRunState(running)}${alertLines(deliveries)}`,
  );
  return ExitCode.ok;
}
