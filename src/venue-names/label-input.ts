import { buildCatalogue } from '../catalogue/index.js';
import type { Config } from '../config/index.js';
import type { VenueLabelInput } from '../warehouse/venue-labels.js';

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
