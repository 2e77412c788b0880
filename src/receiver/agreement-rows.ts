import type { AgreementRow } from '../warehouse/index.js';
import type { JournaledEvent } from './journaled-event.js';
import { normalizeInstant } from './timestamps.js';

/**
 * One row per acceptance. An acceptance is identified by user, venue and `accepted-date`: the
 * platform repeats the latest acceptance in every later event of the pair, and those repeats
 * must not add rows. Without an `accepted-date` the texts identify it instead. An agreement
 * object with neither is no acceptance and is skipped. Rows are only ever added: the first
 * delivery of an acceptance is the one kept. The warehouse check against stored rows uses the
 * same identity (see `acceptanceKey` and sql/warehouse/user-venue-agreements-insert.sql).
 */
export function agreementRows(events: readonly JournaledEvent[]): AgreementRow[] {
  const rows = new Map<string, AgreementRow>();
  for (const { event, eventId } of events) {
    const userId = event.data.user.id.toLowerCase();
    const venueId = event.data.venue.id.toLowerCase();
    for (const agreement of event.data['user-venue-agreements'] ?? []) {
      const acceptedDate = normalizeInstant(agreement['accepted-date']);
      const texts = agreement.texts ?? null;
      if (acceptedDate === null && texts === null) continue;
      const row: AgreementRow = { user_id: userId, venue_id: venueId, accepted_date: acceptedDate, texts, event_id: eventId };
      const key = acceptanceKey(row);
      if (!rows.has(key)) rows.set(key, row);
    }
  }
  return [...rows.values()];
}

export function acceptanceKey(row: Pick<AgreementRow, 'user_id' | 'venue_id' | 'accepted_date' | 'texts'>): string {
  const what = row.accepted_date ?? `texts:${JSON.stringify(row.texts)}`;
  return `${row.user_id}|${row.venue_id}|${what}`;
}
