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

/**
 * Epoch milliseconds of an ISO 8601 timestamp that carries an offset (`Z` or `±HH:MM`), or NaN.
 * The API's form `2026-03-01T00:00:00+00:00` is parsed by hand (this runs once per data point,
 * several times faster than Date.parse); anything else falls back to Date.parse. A timestamp
 * without an offset is refused: its instant would depend on the reader's time zone.
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
      year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour <= 23 &&
      minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && offsetHours >= 0 && offsetMinutes >= 0 &&
      (sign === 43 /* + */ || sign === 45 /* - */) && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45
    ) {
      const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === 43 ? 1 : -1);
      const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offset;
      // Date.UTC rolls 2026-02-31 over into March; a real date maps back to its own day.
      if (new Date(ms + offset).getUTCDate() === day) return ms;
      return Number.NaN;
    }
  }
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(text)) return Number.NaN;
  return Date.parse(text);
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Epoch ms of 00:00 UTC of a `YYYY-MM-DD` date. */
export function dateToMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function msToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
