import { addDays } from '../../calendar/index.js';
import { buildCatalogue, BUILTIN_STREAMS } from '../../catalogue/index.js';
import { ExitCode, UsageError } from '../../errors/index.js';
import { closestName } from '../../infra/did-you-mean.js';
import { alignedTable } from '../../infra/text-table.js';
import { LOCK_WAIT_MS } from '../../runner/sync-job.js';
import { newRunId, openWarehouseWhenFree, type ResetCounts, type ResetSelection, type Warehouse } from '../../warehouse/index.js';
import { checkVenuesWhereNothingIsStored, idsOnly, KNOWN_VENUES_SELECTION, selectVenues, venueLabelInput } from '../../venue-names/index.js';
import type { Config } from '../../config/index.js';
import { booleanOption, dateOption, listOption } from '../args.js';
import { venuesOption, venuesOptionSpec } from '../venues-option.js';
import type { Command } from '../command.js';
import { commandLogger, loadCredentialFreeCommandConfig } from '../context.js';

export const resetCommand: Command = {
  name: 'reset',
  summary:
    'Forget the cursors (and with --rows the rows) of streams, venues and days, so that the next sync extracts them again. Prints what it will do; changes nothing without --yes; one transaction.',
  options: {
    streams: { type: 'string', description: 'streams to reset (default: all)', valueName: 'S,S', choices: BUILTIN_STREAMS, list: true },
    venues: venuesOptionSpec('venue or project ids, or venue id prefixes (8+ characters) or names, comma-separated (default: all)'),
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
    const venues = venuesOption(args);

    const logger = commandLogger(args, io, config, 'warn');
    checkVenuesWhereNothingIsStored(venues, config);
    const warehouse = await openWarehouseWhenFree(config.warehouse.path, { waitMs: LOCK_WAIT_MS, logger, signal: io.signal });
    try {
      // Under the lock: the venues a name or prefix is resolved against are those this reset changes.
      const scopes = venues === undefined ? undefined : await selectResetVenues(warehouse, venues, config);
      const selection: ResetSelection = { streams, rows, ...(scopes ? { scopes } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
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

/** Whole ids (venues or projects) as given; venue names and id prefixes among the venues the warehouse and the config know. */
async function selectResetVenues(warehouse: Warehouse, texts: readonly string[], config: Config): Promise<string[]> {
  const candidates = idsOnly(texts) ? [] : await warehouse.venueCandidates(venueLabelInput(config));
  return selectVenues(texts, candidates, KNOWN_VENUES_SELECTION);
}

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
