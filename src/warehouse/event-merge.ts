import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

/** Users or venues: the two entities whose attributes upsert events set. */
export type EventEntity = 'user' | 'venue';

/** A column value as the merge writes it: text (also dates and instants), a flag, or null. */
export type AttributeValue = string | boolean | null;

/** One new upsert_events row (instants as ISO text ending in Z). */
export interface UpsertEventRow {
  readonly event_id: string;
  readonly received_at: string;
  readonly user_id: string;
  readonly venue_id: string;
  /** The body as received. */
  readonly body: string;
}

/** The attributes of one user or venue, keyed by column (see users-upsert.sql / venues-upsert.sql). */
export type AttributeRow = Readonly<Record<string, AttributeValue>> & { readonly id: string };

/** One user_venue_history row as a batch contributes it (ISO UTC instants, or null). */
export interface HistoryRow {
  readonly user_id: string;
  readonly venue_id: string;
  readonly visits_count: number | null;
  readonly first_visit_on: string | null;
  readonly last_visit_on: string | null;
}

/** One acceptance (see user-venue-agreements-insert.sql for its identity). */
export interface AgreementRow {
  readonly user_id: string;
  readonly venue_id: string;
  readonly accepted_date: string | null;
  readonly texts: readonly string[] | null;
  /** The first event (in journal order) that carried this acceptance. */
  readonly event_id: string;
}

/**
 * The statements of one merge transaction of the receiver's journal (`Warehouse.mergeEvents`),
 * each one file `sql/warehouse/*.sql`. Rows travel as one JSON parameter per statement: a few
 * statements per batch whatever its size.
 */
export interface EventMergeSession {
  /** Byte offset up to which `segment` is merged (0: nothing yet). */
  journalOffset(segment: string): Promise<number>;
  saveJournalOffset(segment: string, offset: number): Promise<void>;
  /** The ids of `eventIds` that upsert_events already holds. */
  storedEventIds(eventIds: readonly string[]): Promise<Set<string>>;
  insertEvents(rows: readonly UpsertEventRow[]): Promise<void>;
  storedAttributes(entity: EventEntity, ids: readonly string[]): Promise<AttributeRow[]>;
  /** Versions (receiver_field_versions.versions as JSON text) per id. */
  storedVersions(entity: EventEntity, ids: readonly string[]): Promise<Map<string, string>>;
  writeAttributes(entity: EventEntity, rows: readonly AttributeRow[]): Promise<void>;
  writeVersions(entity: EventEntity, rows: readonly { readonly id: string; readonly versions: string }[]): Promise<void>;
  mergeHistory(rows: readonly HistoryRow[]): Promise<void>;
  insertAgreements(rows: readonly AgreementRow[]): Promise<void>;
}

const ENTITY_SQL = {
  user: { stored: 'warehouse/users-stored.sql', upsert: 'warehouse/users-upsert.sql' },
  venue: { stored: 'warehouse/venues-stored.sql', upsert: 'warehouse/venues-upsert.sql' },
} as const;

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** The merge statements bound to the session of one transaction. */
export function eventMergeSession(session: Session): EventMergeSession {
  return {
    async journalOffset(segment) {
      const rows = await session.all<{ merged_to: number }>(sql('warehouse/journal-progress.sql'), [segment]);
      return rows[0]?.merged_to ?? 0;
    },
    async saveJournalOffset(segment, offset) {
      await session.run(sql('warehouse/journal-progress-save.sql'), [segment, BigInt(offset)]);
    },
    async storedEventIds(eventIds) {
      const rows = await session.all<{ event_id: string }>(sql('warehouse/events-known.sql'), [json(eventIds)]);
      return new Set(rows.map((row) => row.event_id));
    },
    async insertEvents(rows) {
      if (rows.length === 0) return;
      await session.run(sql('warehouse/events-insert.sql'), [json(rows)]);
      await markTableChanged(session, 'upsert_events');
    },
    storedAttributes(entity, ids) {
      return session.all<AttributeRow>(sql(ENTITY_SQL[entity].stored), [json(ids)]);
    },
    async storedVersions(entity, ids) {
      const rows = await session.all<{ id: string; versions: string }>(sql('warehouse/field-versions-stored.sql'), [entity, json(ids)]);
      return new Map(rows.map((row) => [row.id, row.versions]));
    },
    async writeAttributes(entity, rows) {
      if (rows.length === 0) return;
      await session.run(sql(ENTITY_SQL[entity].upsert), [json(rows)]);
      await markTableChanged(session, entity === 'user' ? 'users' : 'venues');
    },
    async writeVersions(entity, rows) {
      if (rows.length === 0) return;
      await session.run(sql('warehouse/field-versions-delete.sql'), [entity, json(rows.map((row) => row.id))]);
      await session.run(sql('warehouse/field-versions-insert.sql'), [entity, json(rows)]);
    },
    async mergeHistory(rows) {
      if (rows.length === 0) return;
      await session.run(sql('warehouse/user-venue-history-merge.sql'), [json(rows)]);
      await markTableChanged(session, 'user_venue_history');
    },
    async insertAgreements(rows) {
      if (rows.length === 0) return;
      await session.run(sql('warehouse/user-venue-agreements-insert.sql'), [json(rows)]);
      await markTableChanged(session, 'user_venue_agreements');
    },
  };
}

/** Forgets a journal segment's offset (the segment was deleted or kept as `*.torn`). */
export async function forgetJournalSegment(session: Session, segment: string): Promise<void> {
  await session.run(sql('warehouse/journal-progress-forget.sql'), [segment]);
}
