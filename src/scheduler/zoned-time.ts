import { DAY_MS } from '../calendar/index.js';

/**
 * Wall-clock arithmetic in an IANA time zone, from the ICU time-zone data Node ships (Intl).
 * A "wall time" is what the zone's clocks show, written as epoch milliseconds as if the zone
 * were UTC (2026-03-29 02:05 is Date.UTC(2026, 2, 29, 2, 5)), so wall times compare and step
 * like numbers whatever the zone's daylight saving rules.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall time the zone's clocks show at `instant` (epoch ms). */
export function wallTimeAt(instant: number, zone: string): number {
  const field: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) {
    if (part.type !== 'literal') field[part.type] = Number(part.value);
  }
  const seconds = Date.UTC(field.year ?? 1970, (field.month ?? 1) - 1, field.day ?? 1, field.hour ?? 0, field.minute ?? 0, field.second ?? 0);
  // Intl shows whole seconds; the milliseconds are the same on every clock.
  return seconds + (((instant % 1000) + 1000) % 1000);
}

/**
 * The first instant at which the zone's clocks show `wall` or a later time:
 * - a wall time that exists once: that instant;
 * - one that exists twice (clocks set back in autumn): the first of the two;
 * - one that does not exist (clocks set forward over it in spring): the moment of the jump,
 *   when the clocks show the first valid time after it.
 */
export function firstInstantAtOrAfter(wall: number, zone: string): number {
  // Offsets (wall − instant) around the wall time: before and after any change near it.
  const offsets = [...new Set([wall - DAY_MS, wall, wall + DAY_MS].map((at) => wallTimeAt(at, zone) - at))];
  const exact = offsets.map((offset) => wall - offset).filter((instant) => wallTimeAt(instant, zone) === wall);
  if (exact.length > 0) return Math.min(...exact);
  // Skipped over: the jump lies between what the larger and the smaller offset give.
  let before = wall - Math.max(...offsets);
  let after = wall - Math.min(...offsets);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (wallTimeAt(middle, zone) >= wall) after = middle;
    else before = middle;
  }
  return after;
}

/** `2026-03-29T03:00:00+02:00`: an instant as the zone's clocks show it, with their offset. */
export function formatInZone(instant: number, zone: string): string {
  const wall = wallTimeAt(instant, zone);
  const offsetMinutes = Math.round((wall - instant) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(wall).toISOString().slice(0, 19)}${offset}`;
}
