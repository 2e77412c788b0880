import { z } from 'zod';

/**
 * Calendar dates are `YYYY-MM-DD` strings in UTC everywhere: config, CLI flags, plans, the
 * warehouse, the receiver and the simulator. The API's days are UTC days, so no time zone enters
 * this arithmetic (the scheduler's zoned times are another matter: `scheduler/zoned-time.ts`).
 */
export const DAY_MS = 86_400_000;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Dates seen valid: a group of thousands of slices repeats the same few window bounds. */
const validDates = new Set<string>();

/** A real calendar date in the `YYYY-MM-DD` form (not 2026-02-30, not 2026-2-1). */
export function isCalendarDate(value: string): boolean {
  if (validDates.has(value)) return true;
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false;
  const ms = dateToMs(value);
  if (!(Number.isFinite(ms) && msToDate(ms) === value)) return false;
  if (validDates.size > 100_000) validDates.clear();
  validDates.add(value);
  return true;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why `value` is not a calendar date, in words a person can act on, or undefined when it is one.
 * `2026-02-30` has the right form: saying "must be a date YYYY-MM-DD" would send them looking
 * for a typo, so it says that the day does not exist.
 */
export function calendarDateProblem(value: string): string | undefined {
  if (isCalendarDate(value)) return undefined;
  if (!DATE_PATTERN.test(value)) return 'must be a date YYYY-MM-DD';
  const [year, month] = [value.slice(0, 4), Number(value.slice(5, 7))];
  const name = MONTHS[month - 1];
  if (name === undefined) return `${value} does not exist: there is no month ${value.slice(5, 7)}`;
  const days = Number(monthEnd(`${year}-${value.slice(5, 7)}-01`).slice(8));
  return `${value} does not exist: ${name} ${year} has ${days} days`;
}

/** A calendar date at a zod boundary (config, simulator options), with calendarDateProblem's words. */
export const CalendarDate = z.string().superRefine((value, context) => {
  const problem = calendarDateProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

/** Epoch milliseconds of the date's 00:00 UTC. */
export function dateToMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** The UTC date of an instant. */
export function msToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 (what DuckDB stores for a DATE; the simulator's time axis). */
export function dateToDays(date: string): number {
  return Math.floor(dateToMs(date) / DAY_MS);
}

export function daysToDate(days: number): string {
  return msToDate(days * DAY_MS);
}

export function todayUtc(now: Date = new Date()): string {
  return msToDate(now.getTime());
}

export function addDays(date: string, days: number): string {
  return msToDate(dateToMs(date) + days * DAY_MS);
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((dateToMs(b) - dateToMs(a)) / DAY_MS);
}

export function monthStart(date: string): string {
  return `${date.slice(0, 8)}01`;
}

export function monthEnd(date: string): string {
  const [year, month] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return msToDate(Date.UTC(year, month, 0));
}

export function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

/** Every date of [from, to], both included. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
