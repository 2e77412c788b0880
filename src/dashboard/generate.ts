import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isTimeZone } from '../calendar/index.js';
import { UsageError } from '../errors/index.js';
import { checkSqlParams, selectSourceVenues, withQuerySource, type QuerySourceOptions } from '../readside/index.js';
import type { ReadSideConfig } from '../config/index.js';
import { collectPageData, type CollectOptions } from './collect.js';
import { renderHtml } from './render-html.js';

export const DEFAULT_TOP_N = 10;
export const DEFAULT_TITLE = 'venue-etl dashboard';
/**
 * Without --from the file holds the last 13 calendar months (this one and the 12 before, so a
 * month can be set beside the same month a year earlier) and opens on the last 90 days of them;
 * the page's range control moves within what the file holds. 1,000 venues × 13 months at day
 * grain is ~12 MB (docs/dashboard.md, "Size and time").
 */
export const DEFAULT_WINDOW_MONTHS = 13;
export const DEFAULT_INITIAL_DAYS = 90;

/** The first day of the default window: the first of the month DEFAULT_WINDOW_MONTHS - 1 months before `now`'s. */
export function defaultWindowFrom(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (DEFAULT_WINDOW_MONTHS - 1), 1)).toISOString().slice(0, 10);
}

export interface DashboardRequest {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** Venue ids, id prefixes or names (an entry may list several, comma-separated: `--venues` as typed). */
  readonly venues?: readonly string[] | undefined;
  readonly tz?: string | undefined;
  readonly topN?: number | undefined;
  readonly title?: string | undefined;
  readonly staleAfterDays?: number | undefined;
  readonly now?: Date | undefined;
}

export interface DashboardPage {
  readonly html: string;
  readonly venues: number;
  readonly days: number;
  readonly hourly: boolean;
  /** Days of the window with any daily figure (0: the page says there is no data, and why). */
  readonly daysWithData: number;
}

/** Refuses what no page can be made from (exit 2), before anything is opened. */
export function checkDashboardRequest(request: DashboardRequest): void {
  // Venue names and id prefixes need the warehouse: dashboardPage resolves them on it.
  checkSqlParams({ from: request.from, to: request.to });
  if (request.tz !== undefined && !isTimeZone(request.tz)) {
    throw new UsageError(`--tz must be an IANA time zone, got "${request.tz}"`, 'e.g. --tz UTC or --tz Europe/Madrid');
  }
}

function collectOptions(request: DashboardRequest, venues: readonly string[] | undefined): CollectOptions {
  const now = request.now ?? new Date();
  return {
    from: request.from,
    to: request.to,
    // --from names the window: the page opens on all of it.
    windowFrom: request.from === undefined ? defaultWindowFrom(now) : undefined,
    initialDays: request.from === undefined ? DEFAULT_INITIAL_DAYS : 0,
    venues,
    tz: request.tz ?? 'UTC',
    topN: request.topN ?? DEFAULT_TOP_N,
    staleAfterDays: request.staleAfterDays ?? 2,
    title: request.title ?? DEFAULT_TITLE,
    now,
  };
}

/** The page from an open connection (the live server keeps its own). */
export async function dashboardPage(connection: Parameters<typeof collectPageData>[0], request: DashboardRequest): Promise<DashboardPage> {
  checkDashboardRequest(request);
  const venues = await selectSourceVenues(connection, request.venues);
  const data = await collectPageData(connection, collectOptions(request, venues));
  const daysWithData = data.days.filter((_, d) => Object.values(data.daily).some((perVenue) => perVenue.some((values) => values[d] !== null))).length;
  return { html: renderHtml(data), venues: data.venues.length, days: data.days.length, hourly: data.peak !== null, daysWithData };
}

/** Reads the warehouse (or with `parquet` its export) and makes the page. */
export async function buildDashboard(
  paths: Pick<ReadSideConfig, 'warehouse' | 'parquet'> & { readonly query?: Pick<ReadSideConfig['query'], 'memoryLimit'> } & Partial<
      Pick<ReadSideConfig, 'scope' | 'endpoints'>
    >,
  parquet: boolean,
  request: DashboardRequest,
  options: QuerySourceOptions = {},
): Promise<DashboardPage> {
  checkDashboardRequest(request);
  return withQuerySource(paths, parquet, (source) => dashboardPage(source.connection, request), options);
}

/** Writes the page under a temporary name and renames it over `out`: a reader never sees half a page. */
export function writeDashboardFile(out: string, html: string): string {
  const path = resolve(out);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, path);
  return path;
}
