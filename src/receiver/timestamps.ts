import { isCalendarDate } from '../calendar/index.js';

/**
 * Instants in events are "ISO 8601 timestamps" (docs/api.md §6) and `created-at` carries
 * microseconds. `Date.parse` keeps milliseconds only and accepts many non-ISO shapes, so
 * instants are parsed here: the microseconds order events exactly, and the normalized UTC
 * text casts to TIMESTAMPTZ without depending on the session time zone.
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

export interface Instant {
  /** Milliseconds since 1970-01-01T00:00:00Z. */
  readonly ms: number;
  /** The microseconds below `ms` (0–999). */
  readonly micros: number;
}

/**
 * Parses an ISO 8601 date-time. A value without an offset is read as UTC: the platform sends
 * offsets in its examples, and UTC is the only reading that does not depend on this machine.
 * A bare date (`2026-01-31`) is accepted as its midnight UTC rather than refusing the event.
 */
export function parseInstant(text: string): Instant | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match;
  if (!isCalendarDate(`${y}-${mo}-${d}`)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === undefined) return undefined;
  const wall = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  wall.setUTCFullYear(Number(y)); // Date.UTC would read years 0–99 as 1900–1999
  const digits = fraction.padEnd(6, '0');
  const ms = wall.getTime() - offsetMinutes * 60_000 + Number(digits.slice(0, 3));
  // The offset can carry 9999-12-31 into year 10000 (or 0000-01-01 before year 0): no
  // YYYY-MM-DD text can hold that instant, and the warehouse could not store the event.
  const year = new Date(ms).getUTCFullYear();
  if (year < 0 || year > 9999) return undefined;
  return { ms, micros: Number(digits.slice(3, 6)) };
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function instantIso(instant: Instant): string {
  return `${new Date(instant.ms).toISOString().slice(0, 23)}${String(instant.micros).padStart(3, '0')}Z`;
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.ms - b.ms || a.micros - b.micros;
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The normalized text of an ISO 8601 date-time; null when absent or not one. */
export function normalizeInstant(text: string | null | undefined): string | null {
  const instant = text ? parseInstant(text) : undefined;
  return instant === undefined ? null : instantIso(instant);
}
