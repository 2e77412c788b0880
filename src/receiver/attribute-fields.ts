import type { AttributeValue } from '../warehouse/index.js';
import type { EventUser, EventVenue } from './event-schema.js';
import { normalizeInstant } from './timestamps.js';

/** How one warehouse column is read from the event; `undefined` means "not sent". */
export interface AttributeField<S> {
  readonly column: string;
  readonly read: (source: S) => AttributeValue | undefined;
}

export const USER_FIELDS: readonly AttributeField<EventUser>[] = [
  { column: 'email', read: (u) => u.email },
  { column: 'email_confirmed', read: (u) => u['email-confirmed'] },
  { column: 'first_name', read: (u) => u['first-name'] },
  { column: 'last_name', read: (u) => u['last-name'] },
  { column: 'phone', read: (u) => u.phone },
  { column: 'phone_confirmed', read: (u) => u['phone-confirmed'] },
  { column: 'language', read: (u) => u.language },
  { column: 'birth_date', read: (u) => u['birth-date'] },
  { column: 'gender', read: (u) => u.gender },
  { column: 'is_subscribed', read: (u) => u['is-subscribed'] },
];

export const VENUE_FIELDS: readonly AttributeField<EventVenue>[] = [
  { column: 'name', read: (v) => v.name },
  { column: 'address', read: (v) => v.address },
  { column: 'city', read: (v) => v.city },
  { column: 'country', read: (v) => v.country },
  { column: 'created_at', read: (v) => (v['created-at'] === undefined ? undefined : normalizeInstant(v['created-at'])) },
];
