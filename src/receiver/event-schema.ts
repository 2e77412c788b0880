import { z } from 'zod';
import { isCalendarDate } from '../calendar/index.js';
import { parseInstant } from './timestamps.js';

/**
 * The upsert event body (docs/api.md §6). The platform lists fields but not which are optional, so the
 * schema is strict only where the warehouse cannot do without a value:
 *  - `data.user.id` and `data.venue.id` are required UUIDs (they are the keys of every row);
 *  - every other field may be absent or null, but when present it must have the listed type
 *    (a wrong type is a broken sender, and storing it would silently lose the value);
 *  - `user-venue-history` and `user-venue-agreements` may be absent; agreements may be one
 *    object or an array of them (one per acceptance);
 *  - unknown fields are allowed and kept in `upsert_events.body` (a newer platform may add some).
 * Formats are checked only where a typed column needs them (UUID, DATE, TIMESTAMPTZ): an odd
 * e-mail or phone is stored as sent rather than rejecting the whole event.
 */
function expected(what: string) {
  return { error: (issue: { readonly input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`) };
}

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const text = z.string(expected('a string'));
const flag = z.boolean(expected('true or false'));
const uuid = text.regex(UUID_PATTERN, 'must be a UUID');
const instant = text.refine((value) => parseInstant(value) !== undefined, 'must be an ISO 8601 timestamp');
const calendarDate = text.refine(isCalendarDate, 'must be a date YYYY-MM-DD');
const count = z.int(expected('an integer')).min(0, 'must not be negative');

export const EventUser = z.object(
  {
    id: uuid,
    email: text.nullish(),
    'email-confirmed': flag.nullish(),
    'first-name': text.nullish(),
    'last-name': text.nullish(),
    phone: text.nullish(),
    'phone-confirmed': flag.nullish(),
    language: text.nullish(),
    'birth-date': calendarDate.nullish(),
    gender: text.nullish(),
    'is-subscribed': flag.nullish(),
  },
  expected('an object'),
);

export const EventVenue = z.object(
  {
    id: uuid,
    name: text.nullish(),
    address: text.nullish(),
    city: text.nullish(),
    country: text.nullish(),
    'created-at': instant.nullish(),
  },
  expected('an object'),
);

const EventHistory = z.object(
  {
    'visits-count': count.nullish(),
    'first-visit-on': instant.nullish(),
    'last-visit-on': instant.nullish(),
  },
  expected('an object'),
);

const EventAgreement = z.object(
  {
    'accepted-date': instant.nullish(),
    texts: z.array(text, expected('a list of strings')).nullish(),
  },
  expected('an object'),
);

/** One acceptance object, or a list of them; always a list after parsing. */
const agreements = z.preprocess(
  (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value),
  z.array(EventAgreement, expected('an object or a list of objects')),
);

export const UpsertEventBody = z.object(
  {
    data: z.object(
      {
        user: EventUser,
        venue: EventVenue,
        'user-venue-history': EventHistory.nullish(),
        'user-venue-agreements': agreements.nullish(),
      },
      expected('an object'),
    ),
  },
  expected('a JSON object'),
);

export type EventUser = z.infer<typeof EventUser>;
export type EventVenue = z.infer<typeof EventVenue>;
export type EventHistory = z.infer<typeof EventHistory>;
export type EventAgreement = z.infer<typeof EventAgreement>;
export type UpsertEventBody = z.infer<typeof UpsertEventBody>;
