import { didYouMean } from '../infra/did-you-mean.js';
import { EtlError } from '../errors/index.js';
import { isSnapshotEndpoint, type EndpointRow } from './endpoint-row.js';
import { ENDPOINTS } from './endpoints.js';
import { endpointFromConfig, type UserEndpointRow } from './user-endpoints.js';

/** The endpoints a run works with: the built-in table plus the rows of `endpoints[]` in the config. */
export interface Catalogue {
  readonly rows: readonly EndpointRow[];
  /** Every stream name, in catalogue order. */
  readonly streams: readonly string[];
  /** The first row of a stream: what its slices are planned and normalized by. */
  endpointFor(stream: string): EndpointRow;
  /** Every row that feeds a stream, in catalogue order. */
  rowsOf(stream: string): readonly EndpointRow[];
  /** The row requested before each run: the caller's own account. */
  readonly accessCheck: EndpointRow;
}

/** Built-in stream names, in catalogue order (the config refuses an endpoint row that reuses one). */
export const BUILTIN_STREAMS: readonly string[] = [...new Set(ENDPOINTS.map((row) => row.stream))];

/** The catalogue of `builtIn` rows (the endpoint table by default) and the config's rows, followed alike. */
export function buildCatalogue(userRows: readonly UserEndpointRow[] = [], builtIn: readonly EndpointRow[] = ENDPOINTS): Catalogue {
  const rows = [...builtIn, ...userRows.map(endpointFromConfig)];
  const byStream = new Map<string, EndpointRow[]>();
  for (const row of rows) {
    checkRow(row);
    const own = byStream.get(row.stream);
    if (own) own.push(row);
    else byStream.set(row.stream, [row]);
  }
  const streams = [...byStream.keys()];
  const rowsOf = (stream: string): readonly EndpointRow[] => {
    const own = byStream.get(stream);
    if (!own) {
      throw new EtlError('VENUE_ETL_UNKNOWN_STREAM', `unknown stream "${stream}"${didYouMean(stream, streams)}`, {
        hint: `known streams: ${streams.join(', ')}`,
      });
    }
    return own;
  };
  const callers = rows.filter((row) => row.caller);
  if (callers.length !== 1) throw new Error(`the catalogue needs exactly one caller row (the access check), found ${callers.length}`);
  return {
    rows,
    streams,
    endpointFor: (stream) => rowsOf(stream)[0]!,
    rowsOf,
    accessCheck: callers[0]!,
  };
}

/** Rows the code cannot follow are a programming error, caught when the catalogue is built. */
function checkRow(row: EndpointRow): void {
  const windowed = row.kind === 'series' || row.kind === 'summary';
  if (windowed === isSnapshotEndpoint(row)) {
    throw new Error(`catalogue row ${row.stream} (${row.path}): a ${row.kind} row ${windowed ? 'needs' : 'takes no'} date parameters`);
  }
}

/** Which streams `defaultStreams` keeps: every one, those read by window, or the snapshots. */
export type StreamSet = 'all' | 'windowed' | 'snapshots';

/**
 * The streams a job covers when its command names none: `sync.streams` (every stream when
 * unset), narrowed to `set`. `sync` takes all of them; `backfill` and the nightly job the ones
 * read by window (history and summaries, config rows included); the roles job the snapshots.
 */
export function defaultStreams(catalogue: Catalogue, configured: readonly string[] | undefined, set: StreamSet): string[] {
  const streams = configured ?? catalogue.streams;
  if (set === 'all') return [...streams];
  return streams.filter((stream) => catalogue.streams.includes(stream) && isSnapshotEndpoint(catalogue.endpointFor(stream)) === (set === 'snapshots'));
}

/** A placeholder's value: one id, or a batch of ids sent comma-delimited. */
export type PlaceholderValue = string | readonly string[];

/** Fills `{venue_id}`-style placeholders; ids are URL-encoded (the commas between a batch's ids are kept). */
export function fillTemplate(template: string, values: Readonly<Record<string, PlaceholderValue>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${whole} in ${template}`);
    return typeof value === 'string' ? encodeURIComponent(value) : value.map(encodeURIComponent).join(',');
  });
}
