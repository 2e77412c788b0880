import { dateToDays, isCalendarDate } from '../../calendar/index.js';
import { badRequest } from './http-error.js';

export interface DateRange {
  readonly from?: string;
  readonly to?: string;
}

// A series over more days than this would be megabytes of points: surely a client bug.
const MAX_SERIES_DAYS = 3660;

/** `from`/`to` as calendar dates; `required` for history endpoints. Raises 400 with the parameter. */
export function dateRange(query: URLSearchParams, required: boolean): DateRange {
  const read = (name: 'from' | 'to'): string | undefined => {
    const value = query.get(name);
    if (value === null || value === '') {
      if (required) throw badRequest(`query parameter "${name}" is required (YYYY-MM-DD)`, name);
      return undefined;
    }
    if (!isCalendarDate(value)) throw badRequest(`"${name}" must be a calendar date YYYY-MM-DD, got "${value}"`, name);
    return value;
  };
  const from = read('from');
  const to = read('to');
  if (from !== undefined && to !== undefined && from > to) throw badRequest(`"from" (${from}) is after "to" (${to})`, 'from');
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

export function seriesRange(query: URLSearchParams): { from: string; to: string } {
  const { from, to } = dateRange(query, true) as { from: string; to: string };
  if (dateToDays(to) - dateToDays(from) + 1 > MAX_SERIES_DAYS) {
    throw badRequest(`the range from ${from} to ${to} exceeds ${MAX_SERIES_DAYS} days`, 'from');
  }
  return { from, to };
}

/** A filter that must be present, e.g. `filter[venue]`. */
export function requiredFilter(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw badRequest(`query parameter "${name}" is required`, name);
  return value;
}
