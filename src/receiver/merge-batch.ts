import type { Session } from '../warehouse/index.js';
import { agreementRows } from './agreement-rows.js';
import { USER_FIELDS, VENUE_FIELDS, type AttributeField, type AttributeValue } from './attribute-fields.js';
import { mergeAttributes, newestAttributes, type AttributeState } from './attribute-merge.js';
import { decodeVersions, encodeVersions } from './field-versions.js';
import { historyRows } from './history-rows.js';
import type { JournaledEvent } from './journaled-event.js';
import * as statements from './merge-statements.js';

export interface BatchOutcome {
  /** Events new to upsert_events. */
  readonly inserted: number;
  /** Events already stored (a redelivered body, or a batch merged before a crash). */
  readonly duplicates: number;
}

interface Entity<S> {
  readonly kind: 'user' | 'venue';
  readonly fields: readonly AttributeField<S>[];
  readonly pick: (event: JournaledEvent) => { readonly id: string; readonly source: S };
  readonly select: string;
  readonly upsert: string;
}

const USERS: Entity<JournaledEvent['event']['data']['user']> = {
  kind: 'user',
  fields: USER_FIELDS,
  pick: (e) => ({ id: e.event.data.user.id.toLowerCase(), source: e.event.data.user }),
  select: statements.SELECT_USERS,
  upsert: statements.UPSERT_USERS,
};

const VENUES: Entity<JournaledEvent['event']['data']['venue']> = {
  kind: 'venue',
  fields: VENUE_FIELDS,
  pick: (e) => ({ id: e.event.data.venue.id.toLowerCase(), source: e.event.data.venue }),
  select: statements.SELECT_VENUES,
  upsert: statements.UPSERT_VENUES,
};

/**
 * Merges one batch of journaled events inside the caller's transaction. Events already in
 * upsert_events are skipped entirely, which makes merging the same records twice harmless.
 */
export async function mergeBatch(session: Session, events: readonly JournaledEvent[]): Promise<BatchOutcome> {
  // A body delivered twice within the batch counts once: its first delivery.
  const firstDeliveries = new Map<string, JournaledEvent>();
  for (const event of events) if (!firstDeliveries.has(event.eventId)) firstDeliveries.set(event.eventId, event);
  const stored = await session.all<{ event_id: string }>(statements.SELECT_KNOWN_EVENTS, [json([...firstDeliveries.keys()])]);
  for (const row of stored) firstDeliveries.delete(row.event_id);
  const fresh = [...firstDeliveries.values()];
  if (fresh.length > 0) {
    const eventRows = fresh.map((e) => ({
      event_id: e.eventId,
      received_at: new Date(e.receivedAtMs).toISOString(),
      user_id: e.event.data.user.id,
      venue_id: e.event.data.venue.id,
      body: e.body,
    }));
    await session.run(statements.INSERT_EVENTS, [json(eventRows)]);
    await mergeEntity(session, USERS, fresh);
    await mergeEntity(session, VENUES, fresh);
    const history = historyRows(fresh);
    if (history.length > 0) await session.run(statements.MERGE_HISTORY, [json(history)]);
    const agreements = agreementRows(fresh);
    if (agreements.length > 0) await session.run(statements.INSERT_AGREEMENTS, [json(agreements)]);
  }
  return { inserted: fresh.length, duplicates: events.length - fresh.length };
}

async function mergeEntity<S>(session: Session, entity: Entity<S>, events: readonly JournaledEvent[]): Promise<void> {
  const incoming = newestAttributes(events, entity.pick, entity.fields);
  const ids = json([...incoming.keys()]);
  const columns = entity.fields.map((field) => field.column);
  const storedRows = await session.all<Record<string, AttributeValue> & { id: string }>(entity.select, [ids]);
  const storedVersions = new Map(
    (await session.all<{ id: string; versions: string }>(statements.SELECT_VERSIONS, [entity.kind, ids])).map(
      (row) => [row.id, decodeVersions(row.versions, columns)] as const,
    ),
  );
  const stored = new Map<string, AttributeState>(
    // Versions without a row (the row was deleted by hand) are ignored: the entity starts over.
    storedRows.map((row) => [row.id, { values: row, versions: storedVersions.get(row.id) ?? {} }] as const),
  );
  const rows: Record<string, AttributeValue>[] = [];
  const versions: { id: string; versions: string }[] = [];
  for (const [id, state] of incoming) {
    const merged = mergeAttributes(stored.get(id), state, entity.fields as readonly AttributeField<unknown>[]);
    if (merged.valuesChanged) rows.push({ id, ...merged.state.values });
    if (merged.versionsChanged) versions.push({ id, versions: encodeVersions(merged.state.versions) });
  }
  if (rows.length > 0) await session.run(entity.upsert, [json(rows)]);
  if (versions.length > 0) {
    await session.run(statements.DELETE_VERSIONS, [entity.kind, json(versions.map((v) => v.id))]);
    await session.run(statements.INSERT_VERSIONS, [entity.kind, json(versions)]);
  }
}

function json(value: unknown): string {
  return JSON.stringify(value);
}
