import type { DuckDBConnection } from '@duckdb/node-api';
import { sessionOf } from '../warehouse/session.js';
import { idsOnly, KNOWN_VENUES_SELECTION, readVenueCandidates, selectVenues } from '../venue-names/index.js';

/**
 * `--venues` of a read command (report, dashboard), resolved on its open source against every
 * venue known there (the config's, the receiver's, those with cursors; sql/views/venue-labels.sql).
 * Ids alone need no lookup and are taken as before, known or not.
 */
export async function selectSourceVenues(connection: DuckDBConnection, texts: readonly string[] | undefined): Promise<string[] | undefined> {
  if (texts === undefined) return undefined;
  const candidates = idsOnly(texts) ? [] : await readVenueCandidates(sessionOf(connection));
  return selectVenues(texts, candidates, KNOWN_VENUES_SELECTION);
}
