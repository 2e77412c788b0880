// The simulator's time axis is UTC day numbers (days since 1970-01-01): `dateToDays`.
import { DAY_MS, daysToDate, dateToDays } from '../calendar/index.js';

/**
 * The simulator's clock: the date is `today` (the simulated one), the time of day the
 * machine's. Its `Date` header is what a client compares its own clock with.
 */
export function simulatedNow(today: string, real: Date = new Date()): Date {
  return new Date(dateToDays(today) * DAY_MS + (((real.getTime() % DAY_MS) + DAY_MS) % DAY_MS));
}

/** The API's timestamp form: ISO 8601 with an explicit `+00:00` offset. */
export function hourTimestamp(day: number, hour: number): string {
  return `${daysToDate(day)}T${String(hour).padStart(2, '0')}:00:00+00:00`;
}

/** `2026-03-01T10:11:12+00:00`, or with microseconds (`…12.345678+00:00`) when asked. */
export function isoWithOffset(ms: number, micros?: number): string {
  const base = new Date(ms).toISOString().slice(0, 19);
  if (micros === undefined) return `${base}+00:00`;
  return `${base}.${String(micros).padStart(6, '0')}+00:00`;
}

/** 0 = Sunday. 1970-01-01 was a Thursday. */
export function dayOfWeek(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}
