import type { DuckDBConnection } from '@duckdb/node-api';
import type { SqlParams } from '../readside/index.js';
import type { Count, PageData } from './page-data.js';
import { reportRows } from './report-rows.js';

/**
 * The figures the reports give only as totals over a range (login-method shares, the rating
 * request funnel, peak hours), read month by month so that the page's range control can sum the
 * months it overlaps. Each month is the report run with that month's first and last day (clipped
 * to the window the file holds): `venue-etl report NAME --from 2026-03-01 --to 2026-03-31` prints
 * the same figures. Month grain, not day grain: per venue and day these would add ~8 numbers per
 * venue-day (as many as the daily series already hold) to a file that must stay within its budget
 * (docs/dashboard.md, "Size").
 */
export interface MonthlyFigures {
  readonly methods: PageData['methods'];
  readonly funnel: PageData['funnel'];
  readonly peak: PageData['peak'];
}

/** `[first, last]` day of each month of `months` (`YYYY-MM`), clipped to `first..last`. */
export function monthBounds(months: readonly string[], first: string, last: string): [string, string][] {
  return months.map((month) => {
    const [year, mon] = month.split('-').map(Number) as [number, number];
    const end = new Date(Date.UTC(year, mon, 0)).toISOString().slice(0, 10);
    const start = `${month}-01`;
    return [start < first ? first : start, end > last ? last : end];
  });
}

export async function collectMonthlyFigures(
  connection: DuckDBConnection,
  params: SqlParams,
  months: readonly string[],
  bounds: readonly [string, string][],
  venueIndex: ReadonlyMap<string, number>,
): Promise<MonthlyFigures> {
  const V = venueIndex.size;
  const M = months.length;
  const perVenueMonth = <T>(make: () => T): T[][] => Array.from({ length: V }, () => Array.from({ length: M }, make));
  const methodsByMonth: { method: string; venue: number; month: number; logins: Count }[] = [];
  // null = no row for that venue and month: nothing loaded, which the page says (not 0).
  const funnel = perVenueMonth((): Count[] | null => null);
  const peakAverage: (Count[] | null)[][] = perVenueMonth(() => null);
  const peakHours: (number[] | null)[][] = perVenueMonth(() => null);
  let hourly = false;
  for (const [m, [from, to]] of bounds.entries()) {
    if (from > to) continue; // a month of ratings outside the window's days
    const month = { ...params, from, to };
    for (const r of await reportRows(connection, 'login-method-shares', month)) {
      const venue = venueIndex.get(r.venue_id);
      if (venue !== undefined) methodsByMonth.push({ method: r.method, venue, month: m, logins: r.logins });
    }
    for (const r of await reportRows(connection, 'rating-request-funnel', month)) {
      const venue = venueIndex.get(r.venue_id);
      if (venue !== undefined) funnel[venue]![m] = [r.sent, r.opened, r.rated, r.commented];
    }
    // Average detected devices per local weekday and hour (the report's rows per weekday, not its
    // every-day rows) and how many hours each average is over, so months can be weighed together.
    // A slot without an hourly point counts 0 (nothing observed).
    for (const r of await reportRows(connection, 'peak-hours', month)) {
      if (r.stream !== 'venue-devices-history' || r.metric !== 'detected' || r.weekday === null) continue;
      const venue = venueIndex.get(r.venue_id);
      if (venue === undefined) continue;
      hourly = true;
      peakAverage[venue]![m] ??= new Array<Count>(168).fill(0);
      peakHours[venue]![m] ??= new Array<number>(168).fill(0);
      const average = peakAverage[venue]![m]!;
      const hours = peakHours[venue]![m]!;
      average[(r.weekday - 1) * 24 + r.hour] = r.average;
      hours[(r.weekday - 1) * 24 + r.hour] = r.hours;
    }
  }
  const names = [...new Set(methodsByMonth.map((r) => r.method))].sort();
  const nameIndex = new Map(names.map((n, i) => [n, i]));
  // A venue and month with rows for some methods logged in 0 times by the others.
  const logins = perVenueMonth((): Count[] | null => null);
  for (const r of methodsByMonth) {
    logins[r.venue]![r.month] ??= new Array<Count>(names.length).fill(0);
    logins[r.venue]![r.month]![nameIndex.get(r.method)!] = r.logins;
  }
  return {
    methods: { names, logins },
    funnel,
    peak: hourly ? { average: peakAverage, hours: peakHours } : null,
  };
}
