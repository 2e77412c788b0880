/** Calendar dates are `YYYY-MM-DD` strings in UTC everywhere in the warehouse layer. */
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Dates seen valid: a group of thousands of slices repeats the same few window bounds. */
const validDates = new Set<string>();

export function isIsoDate(value: string): boolean {
  if (validDates.has(value)) return true;
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!(Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value))) return false;
  if (validDates.size > 100_000) validDates.clear();
  validDates.add(value);
  return true;
}

/** Epoch milliseconds of the date's 00:00 UTC. */
export function dateToMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Days since 1970-01-01 (what DuckDB stores for a DATE). */
export function dateToDays(date: string): number {
  return Math.floor(dateToMs(date) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return new Date(dateToMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}

export { DAY_MS };
