/**
 * The statements of one merge batch. Rows travel as ONE JSON parameter that `from_json`
 * unpacks into typed columns: a few statements per batch whatever its size, no per-row
 * round trips. Instants travel as ISO text ending in Z, so casts do not depend on the
 * session time zone.
 */
type ColumnType = string | readonly ColumnType[];

function rows(param: number, struct: Readonly<Record<string, ColumnType>>): string {
  return `(SELECT unnest(from_json($${param}::JSON, '[${JSON.stringify(struct)}]'), recursive := true))`;
}

const ID_LIST = (param: number): string => `(SELECT unnest(from_json($${param}::JSON, '["UUID"]')))`;

export const SELECT_KNOWN_EVENTS = `
SELECT event_id FROM upsert_events
 WHERE event_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`;

export const INSERT_EVENTS = `
INSERT INTO upsert_events (event_id, received_at, user_id, venue_id, body)
SELECT r.event_id, r.received_at::TIMESTAMPTZ, r.user_id::UUID, r.venue_id::UUID, r.body::JSON
  FROM ${rows(1, { event_id: 'VARCHAR', received_at: 'VARCHAR', user_id: 'VARCHAR', venue_id: 'VARCHAR', body: 'VARCHAR' })} AS r`;

export const SELECT_USERS = `
SELECT user_id::VARCHAR AS id, email, email_confirmed, first_name, last_name, phone, phone_confirmed,
       language, birth_date::VARCHAR AS birth_date, gender, is_subscribed
  FROM users WHERE user_id IN ${ID_LIST(1)}`;

// created_at in the same text form the merge computes from events, so an unchanged value compares equal.
export const SELECT_VENUES = `
SELECT venue_id::VARCHAR AS id, name, address, city, country,
       strftime(created_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
  FROM venues WHERE venue_id IN ${ID_LIST(1)}`;

export const SELECT_VERSIONS = `
SELECT entity_id::VARCHAR AS id, versions::VARCHAR AS versions FROM receiver_field_versions
 WHERE entity = $1 AND entity_id IN ${ID_LIST(2)}`;

export const UPSERT_USERS = `
INSERT OR REPLACE INTO users (user_id, email, email_confirmed, first_name, last_name, phone, phone_confirmed,
                              language, birth_date, gender, is_subscribed, updated_at)
SELECT r.id::UUID, r.email, r.email_confirmed, r.first_name, r.last_name, r.phone, r.phone_confirmed,
       r.language, r.birth_date::DATE, r.gender, r.is_subscribed, now()
  FROM ${rows(1, {
    id: 'VARCHAR', email: 'VARCHAR', email_confirmed: 'BOOLEAN', first_name: 'VARCHAR', last_name: 'VARCHAR',
    phone: 'VARCHAR', phone_confirmed: 'BOOLEAN', language: 'VARCHAR', birth_date: 'VARCHAR', gender: 'VARCHAR',
    is_subscribed: 'BOOLEAN',
  })} AS r`;

export const UPSERT_VENUES = `
INSERT OR REPLACE INTO venues (venue_id, name, address, city, country, created_at, updated_at)
SELECT r.id::UUID, r.name, r.address, r.city, r.country, r.created_at::TIMESTAMPTZ, now()
  FROM ${rows(1, { id: 'VARCHAR', name: 'VARCHAR', address: 'VARCHAR', city: 'VARCHAR', country: 'VARCHAR', created_at: 'VARCHAR' })} AS r`;

// The table has no key (see 002_receiver.sql): replace = delete, then insert.
export const DELETE_VERSIONS = `
DELETE FROM receiver_field_versions WHERE entity = $1 AND entity_id IN ${ID_LIST(2)}`;

export const INSERT_VERSIONS = `
INSERT INTO receiver_field_versions (entity, entity_id, versions)
SELECT $1, r.id::UUID, r.versions::JSON FROM ${rows(2, { id: 'VARCHAR', versions: 'VARCHAR' })} AS r`;

// greatest/least skip NULLs, so a value the event did not send never erases one stored.
export const MERGE_HISTORY = `
INSERT INTO user_venue_history AS h (user_id, venue_id, visits_count, first_visit_on, last_visit_on, updated_at)
SELECT r.user_id::UUID, r.venue_id::UUID, r.visits_count, r.first_visit_on::TIMESTAMPTZ, r.last_visit_on::TIMESTAMPTZ, now()
  FROM ${rows(1, { user_id: 'VARCHAR', venue_id: 'VARCHAR', visits_count: 'BIGINT', first_visit_on: 'VARCHAR', last_visit_on: 'VARCHAR' })} AS r
ON CONFLICT (user_id, venue_id) DO UPDATE SET
  visits_count   = greatest(h.visits_count, excluded.visits_count),
  first_visit_on = least(h.first_visit_on, excluded.first_visit_on),
  last_visit_on  = greatest(h.last_visit_on, excluded.last_visit_on),
  updated_at     = CASE
    WHEN h.visits_count   IS DISTINCT FROM greatest(h.visits_count, excluded.visits_count)
      OR h.first_visit_on IS DISTINCT FROM least(h.first_visit_on, excluded.first_visit_on)
      OR h.last_visit_on  IS DISTINCT FROM greatest(h.last_visit_on, excluded.last_visit_on)
    THEN excluded.updated_at ELSE h.updated_at END`;

// The identity of an acceptance (see agreement-rows.ts): user, venue and accepted_date, or
// the texts when there is no accepted_date.
export const INSERT_AGREEMENTS = `
INSERT INTO user_venue_agreements (user_id, venue_id, accepted_date, texts, event_id)
SELECT r.user_id::UUID, r.venue_id::UUID, r.accepted_date::TIMESTAMPTZ, r.texts, r.event_id
  FROM ${rows(1, { user_id: 'VARCHAR', venue_id: 'VARCHAR', accepted_date: 'VARCHAR', texts: ['VARCHAR'], event_id: 'VARCHAR' })} AS r
 WHERE NOT EXISTS (
   SELECT 1 FROM user_venue_agreements a
    WHERE a.user_id = r.user_id::UUID AND a.venue_id = r.venue_id::UUID
      AND CASE WHEN r.accepted_date IS NULL
               THEN a.accepted_date IS NULL AND a.texts IS NOT DISTINCT FROM r.texts
               ELSE a.accepted_date = r.accepted_date::TIMESTAMPTZ END)`;

export const SELECT_PROGRESS = `SELECT merged_to::DOUBLE AS merged_to FROM receiver_journal_progress WHERE segment = $1`;

export const SAVE_PROGRESS = `
INSERT OR REPLACE INTO receiver_journal_progress (segment, merged_to, updated_at) VALUES ($1, $2, now())`;

export const DELETE_PROGRESS = `DELETE FROM receiver_journal_progress WHERE segment = $1`;
