import type { AttributeRow, EventEntity, EventMergeSession, UpsertEventRow } from '../warehouse/index.js';
import { agreementRows } from './agreement-rows.js';
import { USER_FIELDS, VENUE_FIELDS, type AttributeField } from './attribute-fields.js';
import { mergeAttributes, newestAttributes, type AttributeState } from './attribute-merge.js';
import { decodeVersions, encodeVersions } from './field-versions.js';
import { historyRows } from './history-rows.js';
import type { JournaledEvent } from './journaled-event.js';

export interface BatchOutcome {
  /** Events new to upsert_events. */
  readonly inserted: number;
  /** Events already stored (a redelivered body, or a batch merged before a crash). */
  readonly duplicates: number;
}

interface Entity<S> {
  readonly kind: EventEntity;
  readonly fields: readonly AttributeField<S>[];
  readonly pick: (event: JournaledEvent) => { readonly id: string; readonly source: S };
}

const USERS: Entity<JournaledEvent['event']['data']['user']> = {
  kind: 'user',
  fields: USER_FIELDS,
  pick: (e) => ({ id: e.event.data.user.id.toLowerCase(), source: e.event.data.user }),
};

const VENUES: Entity<JournaledEvent['event']['data']['venue']> = {
  kind: 'venue',
  fields: VENUE_FIELDS,
  pick: (e) => ({ id: e.event.data.venue.id.toLowerCase(), source: e.event.data.venue }),
};

/**
 * Merges one batch of journaled events inside the caller's merge transaction. Events already
 * in upsert_events are skipped entirely, which makes merging the same records twice harmless.
 */
export async function mergeBatch(merge: EventMergeSession, events: readonly JournaledEvent[]): Promise<BatchOutcome> {
  // A body delivered twice within the batch counts once: its first delivery.
  const firstDeliveries = new Map<string, JournaledEvent>();
  for (const event of events) if (!firstDeliveries.has(event.eventId)) firstDeliveries.set(event.eventId, event);
  for (const eventId of await merge.storedEventIds([...firstDeliveries.keys()])) firstDeliveries.delete(eventId);
  const fresh = [...firstDeliveries.values()];
  if (fresh.length > 0) {
    const eventRows: UpsertEventRow[] = fresh.map((e) => ({
      event_id: e.eventId,
      received_at: new Date(e.receivedAtMs).toISOString(),
      user_id: e.event.data.user.id,
      venue_id: e.event.data.venue.id,
      body: e.body,
    }));
    await merge.insertEvents(eventRows);
    await mergeEntity(merge, USERS, fresh);
    await mergeEntity(merge, VENUES, fresh);
    await merge.mergeHistory(historyRows(fresh));
    await merge.insertAgreements(agreementRows(fresh));
  }
  return { inserted: fresh.length, duplicates: events.length - fresh.length };
}

async function mergeEntity<S>(merge: EventMergeSession, entity: Entity<S>, events: readonly JournaledEvent[]): Promise<void> {
  const incoming = newestAttributes(events, entity.pick, entity.fields);
  const ids = [...incoming.keys()];
  const columns = entity.fields.map((field) => field.column);
  const storedRows = await merge.storedAttributes(entity.kind, ids);
  const storedVersions = await merge.storedVersions(entity.kind, ids);
  const stored = new Map<string, AttributeState>(
    // Versions without a row (the row was deleted by hand) are ignored: the entity starts over.
    storedRows.map((row) => {
      const versions = storedVersions.get(row.id);
      return [row.id, { values: row, versions: versions === undefined ? {} : decodeVersions(versions, columns) }] as const;
    }),
  );
  const rows: AttributeRow[] = [];
  const versions: { id: string; versions: string }[] = [];
  for (const [id, state] of incoming) {
    const merged = mergeAttributes(stored.get(id), state, columns);
    if (merged.valuesChanged) rows.push({ id, ...merged.state.values });
    if (merged.versionsChanged) versions.push({ id, versions: encodeVersions(merged.state.versions) });
  }
  await merge.writeAttributes(entity.kind, rows);
  await merge.writeVersions(entity.kind, versions);
}
