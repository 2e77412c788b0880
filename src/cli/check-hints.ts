import type { JsonValue } from '../readside/index.js';

type Row = Readonly<Record<string, JsonValue>>;

/** Under a failed check: the command that lists its rows, and the one that fixes them (when one can). */
export interface CheckHint {
  readonly list: string;
  readonly fix?: string;
  /** What to know about the fix (it may not be enough; --parquet needs an export after it). */
  readonly note?: string;
}

export interface HintContext {
  /** `--config PATH` as given to check, repeated in the commands (else they would read another config). */
  readonly config?: string | undefined;
  readonly parquet: boolean;
}

/** More venues than this: the backfill takes every venue of the scope instead of a long list. */
const MAX_LISTED_VENUES = 5;

/**
 * Which rows a backfill must load again, per check: the columns holding the first and last day
 * of each row (the check's SQL names them; a check without an entry gets no fix command).
 * Reloading replaces a slice's window whole, so it also removes a duplicate key.
 */
const RELOADS: Readonly<
  Record<string, { readonly from: string; readonly to: string; readonly grain?: (rows: readonly Row[]) => string | undefined; readonly note?: string }>
> = {
  'series-gaps': { from: 'gap_from', to: 'gap_to', grain: sameGrain },
  'series-partial-hours': { from: 'day', to: 'day', grain: () => 'hour' },
  'series-duplicate-keys': { from: 'ts', to: 'ts', grain: sameGrain },
  'summary-duplicate-keys': { from: 'period_start', to: 'period_end' },
  'hours-vs-days': { from: 'day', to: 'day', note: 'if it still fails, the API’s hours and days disagree' },
  'summary-vs-series': { from: 'period_start', to: 'period_end', note: 'if it still fails, the API’s summaries and series disagree' },
};

/** The history stream a summary is compared with: the pairs of sql/checks/summary-vs-series.sql. */
const SERIES_OF_SUMMARY: Readonly<Record<string, string>> = {
  'venue-devices-summary': 'venue-devices-history',
  'venue-users-summary': 'venue-users-history',
  'rating-summary': 'rating-history',
};

export function checkHint(check: string, rows: readonly Row[], context: HintContext): CheckHint {
  const tail = `${context.config === undefined ? '' : ` --config ${shellWord(context.config)}`}`;
  const list = `venue-etl check ${check}${context.parquet ? ' --parquet' : ''}${tail}`;
  const fix = fixCommand(check, rows);
  if (fix === undefined) return { list };
  const notes = [RELOADS[check]?.note, context.parquet ? 'then `venue-etl export` for the Parquet files' : undefined].filter((n) => n !== undefined);
  return { list, fix: `${fix}${tail}`, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

function fixCommand(check: string, rows: readonly Row[]): string | undefined {
  // A stream behind: the next sync takes it from its cursor (`venue-etl status` says why it stopped).
  if (check === 'stale-streams') return `venue-etl sync --streams ${distinct(rows, 'stream').join(',')}`;
  const reload = RELOADS[check];
  if (reload === undefined) return undefined;
  const days = rows.flatMap((row) => [day(row[reload.from]), day(row[reload.to])]).filter((d) => d !== undefined);
  const streams = distinct(rows, 'stream').flatMap((stream) =>
    check === 'summary-vs-series' && SERIES_OF_SUMMARY[stream] ? [stream, SERIES_OF_SUMMARY[stream]] : [stream],
  );
  if (days.length === 0 || streams.length === 0) return undefined;
  const venues = distinct(rows, 'venue_id');
  const grain = reload.grain?.(rows);
  return [
    `venue-etl backfill --from ${days.reduce((a, b) => (a < b ? a : b))} --to ${days.reduce((a, b) => (a > b ? a : b))}`,
    `--streams ${[...new Set(streams)].sort().join(',')}`,
    ...(venues.length > 0 && venues.length <= MAX_LISTED_VENUES ? [`--venues ${venues.join(',')}`] : []),
    ...(grain === undefined ? [] : [`--grain ${grain}`]),
    // Forced: a backfill of the same days that finished before would otherwise do nothing.
    '--force',
  ].join(' ');
}

function sameGrain(rows: readonly Row[]): string | undefined {
  const grains = distinct(rows, 'granularity');
  return grains.length === 1 && (grains[0] === 'hour' || grains[0] === 'day') ? grains[0] : undefined;
}

function distinct(rows: readonly Row[], column: string): string[] {
  return [...new Set(rows.map((row) => row[column]).filter((value): value is string => typeof value === 'string'))].sort();
}

/** The UTC day of a date or an ISO timestamp value. */
function day(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

function shellWord(text: string): string {
  return /^[\w./:=@%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
