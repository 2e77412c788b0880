import type { Config } from '../config/index.js';
import { EtlError } from '../errors/index.js';
import type { EndpointRow } from './endpoint-row.js';
import { ENDPOINTS } from './endpoints.js';
import { endpointFromConfig } from './user-endpoints.js';

/** The endpoints a run works with: the spec's table plus the rows of `endpoints[]` in the config. */
export interface Catalogue {
  readonly rows: readonly EndpointRow[];
  /** Every stream name, in catalogue order. */
  readonly streams: readonly string[];
  /** The row that extracts a stream (for accounts: the batch lookup 4.14). */
  endpointFor(stream: string): EndpointRow;
}

export function buildCatalogue(config?: Pick<Config, 'endpoints'>): Catalogue {
  const rows = [...ENDPOINTS, ...(config?.endpoints ?? []).map(endpointFromConfig)];
  const primary = new Map<string, EndpointRow>();
  for (const row of rows) if (!primary.has(row.stream)) primary.set(row.stream, row);
  return {
    rows,
    streams: [...primary.keys()],
    endpointFor(stream) {
      const row = primary.get(stream);
      if (!row) {
        throw new EtlError('VENUE_ETL_UNKNOWN_STREAM', `unknown stream "${stream}"`, {
          hint: `known streams: ${[...primary.keys()].join(', ')}`,
        });
      }
      return row;
    },
  };
}

/** Fills `{venue_id}`-style placeholders; ids are URL-encoded. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${whole} in ${template}`);
    return name === 'account_ids' ? value.split(',').map(encodeURIComponent).join(',') : encodeURIComponent(value);
  });
}
