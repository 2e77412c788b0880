import { addDays } from '../../calendar/index.js';
import { buildCatalogue, BUILTIN_STREAMS } from '../../catalogue/index.js';
import { ExitCode, UsageError } from '../../errors/index.js';
import { closestName } from '../../infra/did-you-mean.js';
import { alignedTable } from '../../infra/text-table.js';
import { LOCK_WAIT_MS } from '../../runner/sync-job.js';
import { newRunId, openWarehouseWhenFree, type ResetCounts, type ResetSelection } from '../../warehouse/index.js';
import { booleanOption, dateOption, listOption } from '../args.js';
import type { Command } from '../command.js';
import { commandLogger, loadCredentialFreeCommandConfig } from '../context.js';

export const resetCommand: Command = {
  name: 'reset',
  summary:
    'Forget the cursors (and with --rows the rows) of streams, venues and days, so that the next sync extracts them again. Prints what it will do; changes nothing without --yes; one transaction.',
  options: {
    streams: { type: 'string', description: 'streams to reset (default: all)', valueName: 'S,S', choices: BUILTIN_STREAMS, list: true },
    venues: { type: 'string', description: 'venue or project ids (default: all)', valueName: 'ID,ID' },
    from: { type: 'string', description: 'forget from this day on: cursors move back to the day before (default: forget them)', valueName: 'DATE' },
    to: { type: 'string', description: 'with --rows: last day whose rows are deleted (default: no end)', valueName: 'DATE' },
    rows: { type: 'boolean', description: 'delete the series and summary rows of the selection too' },
    yes: { type: 'boolean', description: 'do it (without: only print what it would do)' },
  },
  async run(args, io) {
    const config = loadCredentialFreeCommandConfig(args, io);
    const catalogue = buildCatalogue(config.endpoints);
    const streams = listOption(args, 'streams') ?? [...catalogue.streams];
    const unknown = streams.filter((stream) => !catalogue.streams.includes(stream));
    if (unknown.length > 0) {
      const named = unknown.map((stream) => {
        const close = closestName(stream, catalogue.streams);
        return close === undefined ? stream : `${stream} (did you mean "${close}"?)`;
      });
      throw new UsageError(`unknown stream${unknown.length > 1 ? 's' : ''}: ${named.join(', ')}`, `known streams: ${catalogue.streams.join(', ')}`);
    }
    const from = dateOption(args, 'from');
    const to = dateOption(args, 'to');
    const rows = booleanOption(args, 'rows');
    if (to !== undefined && !rows) throw new UsageError('--to bounds the rows deleted: it needs --rows', 'cursors always move back to the day before --from');
    if (from !== undefined && to !== undefined && to < from) throw new UsageError(`--to ${to} is before --from ${from}`);
    const venues = listOption(args, 'venues');
    const selection: ResetSelection = { streams, rows, ...(venues ? { scopes: venues } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };

    const logger = commandLogger(args, io, config, 'warn');
    const warehouse = await openWarehouseWhenFree(config.warehouse.path, { waitMs: LOCK_WAIT_MS, logger, signal: io.signal });
    try {
      const plan = await warehouse.planReset(selection);
      io.stdout.write(describe(selection, plan, config.warehouse.path));
      if (!booleanOption(args, 'yes')) {
        io.stderr.write('nothing changed: run the same command with --yes to do it\n');
        return ExitCode.usage;
      }
      const done = await warehouse.reset(selection, `reset-${newRunId()}`);
      io.stdout.write(
        `reset: ${done.cursors} cursor${done.cursors === 1 ? '' : 's'} ${from ? `moved back to ${dayBefore(from)}` : 'forgotten'}` +
          (rows ? `, ${done.seriesRows} series rows and ${done.summaryRows} summary rows deleted` : '') +
          '; the next sync extracts them again\n',
      );
      return ExitCode.ok;
    } finally {
      await warehouse.close();
    }
  },
};

function dayBefore(date: string): string {
  return addDays(date, -1);
}

function describe(selection: ResetSelection, plan: readonly ResetCounts[], path: string): string {
  const scope = selection.scopes ? `venues/projects ${selection.scopes.join(', ')}` : 'every venue and project';
  const days = selection.from ? `from ${selection.from}${selection.to ? ` to ${selection.to}` : ''}` : 'the whole history';
  const cursorWord = selection.from ? `move cursors at or after ${selection.from} back to ${dayBefore(selection.from)}` : 'forget the cursors';
  const header = `reset in ${path}: ${cursorWord}${selection.rows ? ' and delete the rows' : ''} of ${scope}, ${days}:\n`;
  const table = alignedTable(
    ['stream', 'cursors', 'series rows', 'summary rows'],
    plan.map((row) => [row.stream, String(row.cursors), selection.rows ? String(row.seriesRows) : '-', selection.rows ? String(row.summaryRows) : '-']),
    { rightAlign: [false, true, true, true] },
  );
  return header + table;
}
