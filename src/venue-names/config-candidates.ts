import type { Config } from '../config/index.js';
import type { VenueCandidate } from '../warehouse/venue-candidate.js';
import { selectVenues } from './select-venues.js';

/** The venues of scope.venues, named as the config names them. */
export function configVenueCandidates(config: Pick<Config, 'scope'>): VenueCandidate[] {
  return config.scope.venues.map((id) => ({ id, name: config.scope.venueNames[id.toLowerCase()] ?? null }));
}

/**
 * `--venues` of sync and backfill, resolved against the config alone: their venues are those of
 * scope.venues, and the selection is settled before the API or the warehouse is touched — no read
 * of the warehouse before the run takes its lock (it would wait for, or hold up, another writer,
 * and could change before the lock is taken). Names the receiver learnt from events are not
 * known here: the read commands take those.
 */
export function selectConfigVenues(texts: readonly string[] | undefined, config: Pick<Config, 'scope'>): string[] | undefined {
  if (texts === undefined) return undefined;
  return selectVenues(texts, configVenueCandidates(config), {
    option: '--venues',
    knownHint:
      "sync and backfill take the venues of scope.venues, by the names given there (names from the receiver's events are taken by the read commands; give the venue a name in scope.venues)",
  });
}
