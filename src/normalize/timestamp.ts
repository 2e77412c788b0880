import { DAY_MS } from '../calendar/index.js';

const DIGIT0 = 48;

function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const d = text.charCodeAt(i) - DIGIT0;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12): no Date object needed. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Epoch milliseconds of an ISO 8601 timestamp that carries an offset (`Z` or `±HH:MM`), or NaN.
 * The API's form `2026-03-01T00:00:00+00:00` is parsed by hand (this runs once per data point,
 * several times faster than Date.parse, and allocates nothing: a Date per point was a tenth of
 * the load's main-thread time, with its garbage); anything else falls back to Date.parse. A
 * timestamp without an offset is refused: its instant would depend on the reader's time zone.
 */
export function parseTimestampMs(text: string): number {
  if (text.length === 25 && text.charCodeAt(10) === 84 /* T */ && text.charCodeAt(22) === 58 /* : */) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 2);
    const day = digits(text, 8, 2);
    const hour = digits(text, 11, 2);
    const minute = digits(text, 14, 2);
    const second = digits(text, 17, 2);
    const offsetHours = digits(text, 20, 2);
    const offsetMinutes = digits(text, 23, 2);
    const sign = text.charCodeAt(19);
    if (
      year >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      offsetHours >= 0 &&
      offsetMinutes >= 0 &&
      (sign === 43 /* + */ || sign === 45) /* - */ &&
      text.charCodeAt(4) === 45 &&
      text.charCodeAt(7) === 45
    ) {
      // 2026-02-31 is not a date (Date.UTC would roll it over into March).
      if (day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!)) return Number.NaN;
      const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === 43 ? 1 : -1);
      return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 - offset;
    }
  }
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(text)) return Number.NaN;
  return Date.parse(text);
}

/**
 * The offset a timestamp is written in, in milliseconds east of UTC (`+02:00` → 7,200,000; `Z`
 * → 0), or NaN. With parseTimestampMs it gives the wall-clock time, hence the calendar date, at
 * the place the timestamp was written for: a day point belongs to that date.
 */
export function offsetMsOf(text: string): number {
  const last = text.length - 1;
  if (text.charCodeAt(last) === 90 /* Z */) return 0;
  const colon = text.charCodeAt(last - 2) === 58;
  const start = last - (colon ? 5 : 4);
  const sign = text.charCodeAt(start);
  if (sign !== 43 && sign !== 45) return Number.NaN;
  const hours = digits(text, start + 1, 2);
  const minutes = digits(text, colon ? start + 4 : start + 3, 2);
  if (hours < 0 || minutes < 0) return Number.NaN;
  return (hours * 60 + minutes) * 60_000 * (sign === 43 ? 1 : -1);
}

export const HOUR_MS = 3_600_000;
