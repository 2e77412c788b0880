import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { sqlDir } from '../warehouse/sql-files.js';
import { EtlError } from '../errors/index.js';
import { loadNamedSql, namedSqlObjects, type SqlParams } from '../readside/index.js';
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The rows of the named reports the dashboard draws, checked at the boundary between the SQL
 * and the page: a report whose columns changed fails here with the column's name, not as a
 * blank chart. Counts may be NULL (unknown, never 0) wherever the report says so.
 */
const count = z.number().nullable();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const text = z.string();
const json = z.unknown();

export const REPORT_ROWS = {
  'venue-ranking': z.object({
    rank: z.number(),
    venue: text,
    venue_id: text,
    detected: count,
    authenticated: count,
    authenticated_share: count,
    logins: count,
    embeds: count,
  }),
  'daily-devices': z.object({ venue_id: text, day, detected: count, authenticated: count, authenticated_share: count }),
  'daily-logins': z.object({ venue_id: text, day, logins: count, unique_logins: count }),
  'users-summary': z.object({ venue: text, venue_id: text, period_start: day, period_end: day, confirmed_users: count, returning_users: count }),
  'remarketing-trend': z.object({ venue_id: text, day, embeds: count }),
  'login-method-shares': z.object({ venue: text, venue_id: text, method: text, logins: count, share: count }),
  'rating-distribution': z.object({
    venue: text,
    venue_id: text,
    month: text,
    rates: count,
    average_rate: count,
    rated_1: count,
    rated_2: count,
    rated_3: count,
    rated_4: count,
    rated_5: count,
  }),
  'rating-request-funnel': z.object({ venue: text, venue_id: text, sent: count, opened: count, rated: count, commented: count }),
  'peak-hours': z.object({
    venue_id: text,
    stream: text,
    metric: text,
    weekday: z.number().int().min(1).max(7).nullable(),
    hour: z.number().int().min(0).max(23),
    hours: z.number(),
    average: z.number().nullable(),
    share: z.number().nullable(),
  }),
  coverage: z.object({
    stream: text,
    day,
    venues_loaded: z.number(),
    venues: z.number(),
    failed_slices: z.number(),
    status: z.enum(['loaded', 'missing', 'failed']),
  }),
  freshness: z.record(z.string(), json),
  'last-runs': z.record(z.string(), json),
  'failed-slices': z.record(z.string(), json),
  'venue-access': z.object({ venue_id: text }).catchall(json),
} as const;

/**
 * The page's own statements (`sql/dashboard/*.sql`): a report's periods summed by month, read
 * once for the window instead of once per month (39 report runs made the 20-venue page 16 s).
 */
export const MONTH_ROWS = {
  'login-methods-by-month': z.object({ venue_id: text, month: text, method: text, logins: count }),
  'rating-requests-by-month': z.object({ venue_id: text, month: text, sent: count, opened: count, rated: count, commented: count }),
  'hourly-points': z.object({ hourly: z.boolean() }),
} as const;

export type MonthRowsName = keyof typeof MONTH_ROWS;

/** Runs `sql/dashboard/NAME.sql` through the read side and returns its rows, checked. */
export async function monthRows<N extends MonthRowsName>(connection: DuckDBConnection, name: N, params: SqlParams): Promise<z.infer<(typeof MONTH_ROWS)[N]>[]> {
  const file = join(sqlDir(), 'dashboard', `${name}.sql`);
  const text = readFileSync(file, 'utf8');
  const objects = await namedSqlObjects(connection, { name, description: text.split('\n', 1)[0] ?? '', file, text }, params);
  const parsed = z.array(MONTH_ROWS[name]).safeParse(objects);
  if (!parsed.success) throw reportShapeError(name, parsed.error);
  return parsed.data as z.infer<(typeof MONTH_ROWS)[N]>[];
}

export type ReportName = keyof typeof REPORT_ROWS;
export type ReportRow<N extends ReportName> = z.infer<(typeof REPORT_ROWS)[N]>;

/** Runs `sql/reports/NAME.sql` through the read side and returns its rows, checked. */
export async function reportRows<N extends ReportName>(connection: DuckDBConnection, name: N, params: SqlParams): Promise<ReportRow<N>[]> {
  const schema = z.array(REPORT_ROWS[name]);
  const objects = await namedSqlObjects(connection, loadNamedSql('reports', name), params);
  const parsed = schema.safeParse(objects);
  if (!parsed.success) throw reportShapeError(name, parsed.error);
  return parsed.data as ReportRow<N>[];
}

function reportShapeError(name: string, error: z.ZodError): Error {
  const issue = error.issues[0];
  return new DashboardReportError(name, `${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'unexpected rows'}`, error);
}

export class DashboardReportError extends EtlError {
  constructor(report: string, detail: string, cause: unknown) {
    super('VENUE_DASHBOARD_REPORT_SHAPE', `report ${report} returned rows the dashboard cannot draw (${detail})`, {
      hint: `the dashboard reads the columns sql/reports/${report}.sql (or sql/dashboard/${report}.sql) had when it was written; restore them or update src/dashboard/report-rows.ts`,
      cause,
      details: { report },
    });
    this.name = 'DashboardReportError';
  }
}
