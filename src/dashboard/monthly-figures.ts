import type { DuckDBConnection } from '@duckdb/node-api';
import type { SqlParams } from '../readside/index.js';
import type { Count, PageData } from './page-data.js';
import { monthRows, reportRows } from './report-rows.js';

/**
 * The figures the reports give only as totals over a range (login-method shares, the rating
 * request funnel, peak hours), read month by month so that the page's range control can sum the
 * months it overlaps. Each month's figures are what `venue-etl report NAME --from 2026-03-01 --to
 * 2026-03-31` prints for that month's days (clipped to the window the file holds): the summaries
 * by the report's periods summed per month in one statement (sql/dashboard/), peak hours by the
 * report run per month. Month grain, not day grain: per venue and day these would add ~8 numbers per
 * venue-day (as many as the daily series already hold) to a file that must stay within its budget
 * (docs/dashboard.md, "Size and time").
 */
/**
 * The peak-hours metric the page draws: the report is asked for it alone (its other four
 * metrics were four fifths of the rows, read and dropped: 960,960 rows a month at 1,000 venues).
 */
const PEAK_METRIC = 'venue-devices-history/detected';

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
  const monthIndex = new Map(months.map((m, i) => [m, i]));
  const at = (r: { venue_id: string; month: string }) => [venueIndex.get(r.venue_id), monthIndex.get(r.month)] as const;
  const whole = bounds.length === 0 ? params : { ...params, from: bounds[0]![0], to: bounds.at(-1)![1] };
  for (const r of await monthRows(connection, 'login-methods-by-month', whole)) {
    const [venue, month] = at(r);
    if (venue !== undefined && month !== undefined) methodsByMonth.push({ method: r.method, venue, month, logins: r.logins });
  }
  for (const r of await monthRows(connection, 'rating-requests-by-month', whole)) {
    const [venue, month] = at(r);
    if (venue !== undefined && month !== undefined) funnel[venue]![month] = [r.sent, r.opened, r.rated, r.commented];
  }
  // Peak hours month by month, of the one metric drawn, only when the window holds its hourly
  // points at all (most warehouses hold none: one look says so).
  const peakParams = { ...params, metrics: [PEAK_METRIC] };
  const hourly = (await monthRows(connection, 'hourly-points', whole))[0]?.hourly === true;
  let detected = false;
  for (const [m, [from, to]] of hourly ? bounds.entries() : []) {
    if (from > to) continue; // a month of ratings outside the window's days
    // Average detected devices per local weekday and hour (the report's rows per weekday, not its
    // every-day rows) and how many hours each average is over, so months can be weighed together.
    // A slot without an hourly point counts 0 (nothing observed).
    for (const r of await reportRows(connection, 'peak-hours', { ...peakParams, from, to })) {
      if (r.weekday === null) continue;
      const venue = venueIndex.get(r.venue_id);
      if (venue === undefined) continue;
      detected = true;
      peakAverage[venue]![m] ??= new Array<Count>(168).fill(0);
      peakHours[venue]![m] ??= new Array<number>(168).fill(0);
      peakAverage[venue]![m]![(r.weekday - 1) * 24 + r.hour] = r.average;
      peakHours[venue]![m]![(r.weekday - 1) * 24 + r.hour] = r.hours;
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
    peak: detected ? { average: peakAverage, hours: peakHours } : null,
  };
}
