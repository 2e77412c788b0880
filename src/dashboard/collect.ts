import type { DuckDBConnection } from '@duckdb/node-api';
import type { SqlParams } from '../readside/index.js';
import type { Count, DailyMetric, PageData, VenueEntry } from './page-data.js';
import { reportRows, type ReportRow } from './report-rows.js';
import { calendarDays } from './calendar-days.js';
import { collectMonthlyFigures, monthBounds } from './monthly-figures.js';

export interface CollectOptions {
  /** First and last day (UTC, inclusive); unset = everything the warehouse holds. */
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** Without `from`: the first day read (the default window; see generate.ts). */
  readonly windowFrom?: string | undefined;
  /** Days the page shows when it opens: the last `initialDays` of the window (0 = all of it). */
  readonly initialDays: number;
  readonly venues?: readonly string[] | undefined;
  /** IANA zone of the peak-hours grid (validated by the caller). */
  readonly tz: string;
  /** Venues shown by name in the ranking before "the rest". */
  readonly topN: number;
  readonly staleAfterDays: number;
  readonly title: string;
  /** When the page was made (shown on it). */
  readonly now: Date;
}

const STATUS_LETTER = { loaded: 'L', missing: 'M', failed: 'F' } as const;

/**
 * Every figure of the page, from the named reports (`sql/reports/*.sql`) run with the same
 * parameters `venue-etl report NAME --from --to --venues` passes, so each chart can be
 * reproduced with that command. Only reads: every statement goes through the read side.
 */
export async function collectPageData(connection: DuckDBConnection, options: CollectOptions): Promise<PageData> {
  // peak-hours reads its zone from the `tz` variable, as `venue-etl report peak-hours --tz` sets it.
  const params: SqlParams = {
    from: options.from ?? options.windowFrom,
    to: options.to,
    venues: options.venues,
    staleAfterDays: options.staleAfterDays,
    tz: options.tz,
  };
  const ranking = await reportRows(connection, 'venue-ranking', params);
  const devices = await reportRows(connection, 'daily-devices', params);
  const logins = await reportRows(connection, 'daily-logins', params);
  const users = await reportRows(connection, 'users-summary', params);
  const embeds = await reportRows(connection, 'remarketing-trend', params);
  const ratings = await reportRows(connection, 'rating-distribution', params);
  const coverage = await reportRows(connection, 'coverage', params);
  const freshness = await reportRows(connection, 'freshness', params);
  const lastRuns = await reportRows(connection, 'last-runs', params);
  const failedSlices = await reportRows(connection, 'failed-slices', params);
  const access = await reportRows(connection, 'venue-access', params);

  const dayRows = [...devices, ...logins, ...embeds].map((r) => r.day).concat(users.filter((u) => u.period_end === u.period_start).map((u) => u.period_start));
  const first = options.from ?? minOf(dayRows);
  const last = options.to ?? maxOf(dayRows);
  const days = first !== undefined && last !== undefined ? calendarDays(first, last) : [];
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const months = [...new Set([...days.map((d) => d.slice(0, 7)), ...ratings.map((r) => r.month)])].sort();
  const monthIndex = new Map(months.map((m, i) => [m, i]));

  const { venues, venueIndex } = venueEntries(ranking, users, ratings, access);
  const V = venues.length;

  const daily = dailyArrays(venueIndex, dayIndex, days.length, { devices, logins, users, embeds });

  // null = no row for that venue and month: nothing loaded (the page says so), not 0 ratings.
  const rated = Array.from({ length: V }, () => Array.from({ length: months.length }, (): Count[] | null => null));
  for (const r of ratings) {
    rated[venueIndex.get(r.venue_id) ?? 0][monthIndex.get(r.month) ?? 0] = [r.rated_1, r.rated_2, r.rated_3, r.rated_4, r.rated_5];
  }
  const monthly = await collectMonthlyFigures(connection, params, months, days.length > 0 ? monthBounds(months, days[0]!, days.at(-1)!) : [], venueIndex);

  return {
    title: options.title,
    generatedAt: options.now.toISOString(),
    from: options.from ?? options.windowFrom ?? null,
    to: options.to ?? null,
    tz: options.tz,
    topN: options.topN,
    initial: days.length === 0 ? null : { from: days[Math.max(0, days.length - (options.initialDays || days.length))]!, to: days.at(-1)! },
    days,
    months,
    venues,
    daily,
    methods: monthly.methods,
    ratings: { rated },
    funnel: monthly.funnel,
    peak: monthly.peak,
    coverage: coverageGrid(coverage),
    freshness,
    lastRuns,
    failedSlices,
    // The permission lists are long and repeat per account: their count says enough here.
    access: access.map(({ permissions: _permissions, ...row }) => row),
  };
}

/** Venues in rank order, then any venue that has summaries, ratings or access rows but no series in the range. */
function venueEntries(
  ranking: readonly ReportRow<'venue-ranking'>[],
  users: readonly ReportRow<'users-summary'>[],
  ratings: readonly ReportRow<'rating-distribution'>[],
  access: readonly ReportRow<'venue-access'>[],
): { venues: VenueEntry[]; venueIndex: Map<string, number> } {
  const venues: VenueEntry[] = ranking.map((r) => ({
    id: r.venue_id,
    label: r.venue,
    rank: r.rank,
    detected: r.detected,
    authenticated: r.authenticated,
    logins: r.logins,
    embeds: r.embeds,
  }));
  const venueIndex = new Map(venues.map((v, i) => [v.id, i]));
  // Venues with access rows too: a venue with no figures in the range is still chosen by name.
  const labelled = [
    ...users,
    ...ratings,
    ...access.map((r) => ({ venue_id: r.venue_id, venue: typeof r.venue === 'string' ? r.venue : r.venue_id.slice(0, 8) })),
  ];
  const others = new Map(labelled.filter((r) => !venueIndex.has(r.venue_id)).map((r) => [r.venue_id, r.venue]));
  for (const [id, label] of [...others].sort(([a], [b]) => (a < b ? -1 : 1))) {
    venueIndex.set(id, venues.length);
    venues.push({ id, label, rank: null, detected: null, authenticated: null, logins: null, embeds: null });
  }
  return { venues, venueIndex };
}

interface DailyRows {
  readonly devices: readonly ReportRow<'daily-devices'>[];
  readonly logins: readonly ReportRow<'daily-logins'>[];
  readonly users: readonly ReportRow<'users-summary'>[];
  readonly embeds: readonly ReportRow<'remarketing-trend'>[];
}

/** Each daily metric as venue × day, from the reports' rows. */
function dailyArrays(
  venueIndex: ReadonlyMap<string, number>,
  dayIndex: ReadonlyMap<string, number>,
  dayCount: number,
  { devices, logins, users, embeds }: DailyRows,
): Record<DailyMetric, Count[][]> {
  // Days without a row stay null: a day the warehouse does not hold is unknown, not 0.
  const perDay = (): Count[][] => Array.from({ length: venueIndex.size }, () => new Array<Count>(dayCount).fill(null));
  const daily: Record<DailyMetric, Count[][]> = {
    detected: perDay(),
    authenticated: perDay(),
    logins: perDay(),
    uniqueLogins: perDay(),
    confirmedUsers: perDay(),
    returningUsers: perDay(),
    embeds: perDay(),
  };
  const place = (metric: DailyMetric, venueId: string, day: string, value: Count): void => {
    const v = venueIndex.get(venueId);
    const d = dayIndex.get(day);
    if (v !== undefined && d !== undefined) daily[metric][v][d] = value;
  };
  for (const r of devices) {
    place('detected', r.venue_id, r.day, r.detected);
    place('authenticated', r.venue_id, r.day, r.authenticated);
  }
  for (const r of logins) {
    place('logins', r.venue_id, r.day, r.logins);
    place('uniqueLogins', r.venue_id, r.day, r.unique_logins);
  }
  for (const r of users) {
    if (r.period_end !== r.period_start) continue;
    place('confirmedUsers', r.venue_id, r.period_start, r.confirmed_users);
    place('returningUsers', r.venue_id, r.period_start, r.returning_users);
  }
  for (const r of embeds) place('embeds', r.venue_id, r.day, r.embeds);
  return daily;
}

/** Per stream and day: loaded, missing or failed, and how many venues were loaded of how many. */
function coverageGrid(coverage: readonly ReportRow<'coverage'>[]): PageData['coverage'] {
  const streams = [...new Set(coverage.map((r) => r.stream))];
  const coverageDays = [...new Set(coverage.map((r) => r.day))].sort();
  const coverageDayIndex = new Map(coverageDays.map((d, i) => [d, i]));
  const status = streams.map(() => new Array<string>(coverageDays.length).fill('M'));
  const loaded = streams.map(() => new Array<number>(coverageDays.length).fill(0));
  const streamVenues = streams.map(() => 0);
  for (const r of coverage) {
    const s = streams.indexOf(r.stream);
    const d = coverageDayIndex.get(r.day) ?? 0;
    status[s][d] = STATUS_LETTER[r.status];
    loaded[s][d] = r.venues_loaded;
    streamVenues[s] = r.venues;
  }
  return { streams, days: coverageDays, status: status.map((s) => s.join('')), loaded, venues: streamVenues };
}

function minOf(values: readonly string[]): string | undefined {
  return values.reduce<string | undefined>((min, v) => (min === undefined || v < min ? v : min), undefined);
}

function maxOf(values: readonly string[]): string | undefined {
  return values.reduce<string | undefined>((max, v) => (max === undefined || v > max ? v : max), undefined);
}
