import type { Session } from './session.js';
import { sql } from './sql-files.js';
import type { VenueCandidate } from './venue-candidate.js';

/** What the config adds to the venue labels of a read (sql/views/config-venues.sql, config-venue-streams.sql). */
export interface VenueLabelInput {
  /** scope.venues: every id, with the name its entry gives (null for a plain id). */
  readonly venues: readonly { readonly id: string; readonly name: string | null }[];
  /** The streams asked per venue: their cursors name venues that have data. */
  readonly venueStreams: readonly string[];
}

/**
 * Makes `venue_labels` and `venue_label(id)` (sql/views/venue-labels.sql) on one connection:
 * temporary objects over the warehouse's venues and cursors (or their Parquet views) and the
 * config's names, which a read-only connection may create; nothing is written to any file.
 * Made at every read-side open, so a name changed in the config shows at the next command.
 */
export async function createVenueLabels(session: Pick<Session, 'run'>, input: VenueLabelInput): Promise<void> {
  await session.run(sql('views/config-venues.sql'), [JSON.stringify(input.venues)]);
  await session.run(sql('views/config-venue-streams.sql'), [JSON.stringify(input.venueStreams)]);
  await session.run(sql('views/venue-labels.sql'));
}

/** Every venue known on a connection where createVenueLabels ran: what `--venues` is resolved against. */
export async function readVenueCandidates(session: Pick<Session, 'all'>): Promise<VenueCandidate[]> {
  return session.all<{ id: string; name: string | null; label: string }>(sql('views/venue-candidates.sql'));
}
