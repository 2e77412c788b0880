import type { UpsertEventBody } from './event-schema.js';
import { eventIdOf } from './event-id.js';
import type { JournalRecord } from './journal-format.js';
import { parseInstant } from './timestamps.js';
import { validateEvent, type FieldProblem } from './validate-event.js';

/** A journal record read back and parsed: what one merge step works with. */
export interface JournaledEvent {
  readonly eventId: string;
  readonly receivedAtMs: number;
  /** The body as received (stored in upsert_events.body). */
  readonly body: string;
  readonly event: UpsertEventBody;
  /** Sorts events from older to newer; see `eventVersion`. */
  readonly version: string;
}

export type ParsedRecord =
  | { readonly ok: true; readonly event: JournaledEvent }
  | { readonly ok: false; readonly eventId: string; readonly problems: readonly FieldProblem[] };

/**
 * Records were validated before they were journaled; validating again protects the merge
 * from a journal written by another version of the receiver.
 */
export function parseRecord(record: JournalRecord): ParsedRecord {
  const eventId = eventIdOf(record.body);
  const body = record.body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, eventId, problems: [{ path: '(root)', message: 'is not valid JSON' }] };
  }
  const validation = validateEvent(value);
  if (!validation.ok) return { ok: false, eventId, problems: validation.problems };
  const { event } = validation;
  return { ok: true, event: { eventId, receivedAtMs: record.receivedAtMs, body, event, version: eventVersion(event, record.receivedAtMs, eventId) } };
}

// Fixed-width decimal fields make the version a plain string comparison.
const MS_SHIFT = 62_135_596_800_000; // year 1 → 0, so every instant is non-negative

/**
 * "Older" for attributes: an event is older than another when its `last-visit-on` is earlier
 * (the visit that made the platform send it); ties, and events without a visit time (which
 * count as older than any with one), go by `visits-count`, then by the time the receiver got
 * the event, then by event id, so every pair of events has one order and merges give the
 * same result whatever order the events are merged in.
 */
export function eventVersion(event: UpsertEventBody, receivedAtMs: number, eventId: string): string {
  const history = event.data['user-venue-history'];
  const visit = history?.['last-visit-on'] ? parseInstant(history['last-visit-on']) : undefined;
  const visitPart = visit === undefined ? ''.padStart(18, '0') : `${visit.ms + MS_SHIFT + 1}${String(visit.micros).padStart(3, '0')}`.padStart(18, '0');
  const count = history?.['visits-count'];
  const countPart = (count === undefined || count === null ? 0 : count + 1).toString().padStart(16, '0');
  const receivedPart = Math.max(0, Math.trunc(receivedAtMs)).toString().padStart(15, '0');
  // 64 bits of the event id are plenty to order two different events with equal times.
  return `${visitPart}.${countPart}.${receivedPart}.${eventId.slice(0, 16)}`;
}
