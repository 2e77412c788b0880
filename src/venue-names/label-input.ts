import { buildCatalogue } from '../catalogue/index.js';
import type { Config } from '../config/index.js';

/** What the config adds to the venue labels of a read (sql/views/config-venues.sql, config-venue-streams.sql). */
export interface VenueLabelInput {
  /** scope.venues: every id, with the name its entry gives (null for a plain id). */
  readonly venues: readonly { readonly id: string; readonly name: string | null }[];
  /** The streams asked per venue: their cursors name venues that have data. */
  readonly venueStreams: readonly string[];
}

/** The labels' input from a config: its venues and names, and the venue streams of its catalogue. */
export function venueLabelInput(config: Pick<Config, 'scope' | 'endpoints'>): VenueLabelInput {
  const catalogue = buildCatalogue(config.endpoints);
  return {
    venues: config.scope.venues.map((id) => ({ id, name: config.scope.venueNames[id.toLowerCase()] ?? null })),
    venueStreams: [...new Set(catalogue.rows.filter((row) => row.scope === 'venue').map((row) => row.stream))],
  };
}

/** No config at hand (a warehouse opened by path alone): no names from it, the built-in venue streams. */
export const BUILT_IN_LABEL_INPUT: VenueLabelInput = venueLabelInput({ scope: { venues: [], venueNames: {}, projects: [] }, endpoints: [] });
