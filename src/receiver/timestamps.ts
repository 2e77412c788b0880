/**
 * Instants in events are "ISO 8601 timestamps" (spec §6) and `created-at` carries
 * microseconds. `Date.parse` keeps milliseconds only and accepts many non-ISO shapes, so
 * instants are parsed here: the micros order events exactly, and the normalized UTC text
 * casts to TIMESTAMPTZ without depending on the session time zone.
 */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface Instant {
  /** Microseconds since 1970-01-01T00:00:00Z. */
  readonly micros: bigint;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  readonly iso: string;
}

/**
 * Parses an ISO 8601 date-time. A value without an offset is read as UTC: the platform sends
 * offsets in its examples, and UTC is the only reading that does not depend on this machine.
 */
export function parseInstant(text: string): Instant | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === undefined) return undefined;
  const wallMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const micros =
    BigInt(wallMs - offsetMinutes * 60_000) * 1000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return { micros, iso: formatMicros(micros) };
}

/** A calendar date `YYYY-MM-DD` that exists. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isIsoCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function formatMicros(micros: bigint): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const rest = micros - ms * 1000n;
  const base = new Date(Number(ms)).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  return `${base.slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}
