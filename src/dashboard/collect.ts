import type { DuckDBConnection } from '@duckdb/node-api';
import type { SqlParams } from '../readside/index.js';
import type { Count, DailyMetric, PageData, VenueEntry } from './page-data.js';
import { reportRows, type ReportRow } from './report-rows.js';
import { calendarDays } from './calendar-days.js';

export interface CollectOptions {
  /** First and last day (UTC, inclusive); unset = everything the warehouse holds. */
  readonly from?: string;
  readonly to?: string;
  readonly venues?: readonly string[];
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
  const params: SqlParams = { from: options.from, to: options.to, venues: options.venues, staleAfterDays: options.staleAfterDays, tz: options.tz };
  const ranking = await reportRows(connection, 'venue-ranking', params);
  const devices = await reportRows(connection, 'daily-devices', params);
  const logins = await reportRows(connection, 'daily-logins', params);
  const users = await reportRows(connection, 'users-summary', params);
  const embeds = await reportRows(connection, 'remarketing-trend', params);
  const methods = await reportRows(connection, 'login-method-shares', params);
  const ratings = await reportRows(connection, 'rating-distribution', params);
  const funnel = await reportRows(connection, 'rating-request-funnel', params);
  const peak = await reportRows(connection, 'peak-hours', params);
  const coverage = await reportRows(connection, 'coverage', params);
  const freshness = await reportRows(connection, 'freshness', params);
  const lastRuns = await reportRows(connection, 'last-runs', params);
  const failedSlices = await reportRows(connection, 'failed-slices', params);
  const access = await reportRows(connection, 'venue-access', params);

  const dayRows = [...devices, ...logins, ...embeds].map((r) => r.day).concat(users.filter((u) => u.period_end === u.period_start).map((u) => u.period_start));
  const first = options.from ?? minOf(dayRows);
  const last = options.to ?? maxOf(dayRows);
  const days = first !== undefined && last !== undefined ? calendarDays(first, last) : [];
  const months = [...new Set([...days.map((d) => d.slice(0, 7)), ...ratings.map((r) => r.month)])].sort();
  const monthIndex = new Map(months.map((m, i) => [m, i]));

  // Venues in rank order, then any venue that has summaries but no series in the range.
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
  const others = new Map([...users, ...methods, ...ratings, ...funnel].filter((r) => !venueIndex.has(r.venue_id)).map((r) => [r.venue_id, r.venue]));
  for (const [id, label] of [...others].sort(([a], [b]) => (a < b ? -1 : 1))) {
    venueIndex.set(id, venues.length);
    venues.push({ id, label, rank: null, detected: null, authenticated: null, logins: null, embeds: null });
  }
  const V = venues.length;

  const daily = dailyArrays({ devices, logins, users, embeds }, venueIndex, days);

  const methodNames = [...new Set(methods.map((r) => r.method))].sort();
  const methodIndex = new Map(methodNames.map((m, i) => [m, i]));
  const methodLogins = Array.from({ length: V }, () => new Array<Count>(methodNames.length).fill(0));
  for (const r of methods) methodLogins[venueIndex.get(r.venue_id) ?? 0][methodIndex.get(r.method) ?? 0] = r.logins;

  const rated = Array.from({ length: V }, () => Array.from({ length: months.length }, () => new Array<Count>(5).fill(0)));
  for (const r of ratings) {
    rated[venueIndex.get(r.venue_id) ?? 0][monthIndex.get(r.month) ?? 0] = [r.rated_1, r.rated_2, r.rated_3, r.rated_4, r.rated_5];
  }

  const funnelRows = Array.from({ length: V }, (): Count[] => [0, 0, 0, 0]);
  for (const r of funnel) funnelRows[venueIndex.get(r.venue_id) ?? 0] = [r.sent, r.opened, r.rated, r.commented];

  // The grid: average detected devices per local weekday and hour (the report's rows for each
  // weekday, not its every-day rows). A slot without an hourly point counts 0 (nothing observed).
  const peakGrid: (Count[] | null)[] = new Array<Count[] | null>(V).fill(null);
  for (const r of peak) {
    if (r.stream !== 'venue-devices-history' || r.metric !== 'detected' || r.weekday === null) continue;
    const v = venueIndex.get(r.venue_id);
    if (v === undefined) continue;
    const grid = peakGrid[v] ?? new Array<Count>(168).fill(0);
    peakGrid[v] = grid;
    grid[(r.weekday - 1) * 24 + r.hour] = r.average;
  }

  return {
    title: options.title,
    generatedAt: options.now.toISOString(),
    from: options.from ?? null,
    to: options.to ?? null,
    tz: options.tz,
    topN: options.topN,
    days,
    months,
    venues,
    daily,
    methods: { names: methodNames, logins: methodLogins },
    ratings: { rated },
    funnel: funnelRows,
    peak: peak.length > 0 ? { detected: peakGrid } : null,
    coverage: coverageGrid(coverage),
    freshness,
    lastRuns,
    failedSlices,
    // The permission lists are long and repeat per account: their count says enough here.
    access: access.map(({ permissions: _permissions, ...row }) => row),
  };
}

function minOf(values: readonly string[]): string | undefined {
  return values.reduce<string | undefined>((min, v) => (min === undefined || v < min ? v : min), undefined);
}

function maxOf(values: readonly string[]): string | undefined {
  return values.reduce<string | undefined>((max, v) => (max === undefined || v > max ? v : max), undefined);
}

/** The reports drawn day by day. */
interface DailyRows {
  readonly devices: readonly ReportRow<'daily-devices'>[];
  readonly logins: readonly ReportRow<'daily-logins'>[];
  readonly users: readonly ReportRow<'users-summary'>[];
  readonly embeds: readonly ReportRow<'remarketing-trend'>[];
}

/** daily[metric][venue][day]: days without a row stay null (a day the warehouse does not hold is unknown, not 0). */
function dailyArrays(
  { devices, logins, users, embeds }: DailyRows,
  venueIndex: ReadonlyMap<string, number>,
  days: readonly string[],
): Record<DailyMetric, Count[][]> {
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const perDay = (): Count[][] => Array.from({ length: venueIndex.size }, () => new Array<Count>(days.length).fill(null));
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
