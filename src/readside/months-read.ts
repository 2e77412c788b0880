import { addDays } from '../calendar/index.js';
import { EtlError } from '../errors/index.js';
import { EXPORT_TABLES } from '../export/tables.js';
import type { SqlParams } from './variables.js';

/**
 * What a report reads of a partitioned table, by UTC day of the partition column (series_points:
 * `ts`; summary_values: `period_start`), relative to its range: a report file says it in a header
 * line
 *
 *   -- Parquet months read: series_points from from_date - 6 days to to_date
 *
 * With `--parquet`, the views skip the month partitions outside those days (the views filter the
 * hive column `month` on the variables below), so a report over the last month opens the last
 * month's files, not the year's. A report without such a line, or run without a range, reads
 * every month; a NULL from_date or to_date leaves that side open. The line must cover every row
 * the SQL reads of the table, whatever the parameters (wider is only slower, narrower loses rows
 * on the Parquet side alone): test/readside/parquet-months.test.ts compares each report's rows on
 * both sides at month edges.
 */
export interface MonthsRead {
  readonly table: string;
  /** Days added to from_date (negative: earlier). */
  readonly fromOffset: number;
  /** Days added to to_date. */
  readonly toOffset: number;
}

const PREFIX = /^--\s*Parquet months read:(.*)$/gm;
const LINE = /^\s*([a-z_]+) from from_date(?: ([+-]) (\d+) days?)? to to_date(?: ([+-]) (\d+) days?)?\s*$/;

const PARTITIONED = new Set(EXPORT_TABLES.filter((t) => t.partitionBy !== undefined).map((t) => t.name));

const offset = (sign: string | undefined, days: string | undefined): number => (days === undefined ? 0 : (sign === '-' ? -1 : 1) * Number(days));

/** The declarations of a report's text; a malformed one throws (it would otherwise read everything unnoticed). */
export function monthsRead(text: string): MonthsRead[] {
  const found: MonthsRead[] = [];
  for (const [, body] of text.matchAll(PREFIX)) {
    const match = LINE.exec(body ?? '');
    const table = match?.[1];
    if (match === null || table === undefined || !PARTITIONED.has(table)) {
      throw new EtlError('VENUE_SQL_FAILED', `"-- Parquet months read:${body ?? ''}" is not a declaration of the months read`, {
        hint: `write it as "-- Parquet months read: <${[...PARTITIONED].join('|')}> from from_date [- N days] to to_date [+ N days]"`,
      });
    }
    if (found.some((m) => m.table === table)) {
      throw new EtlError('VENUE_SQL_FAILED', `"-- Parquet months read:" names ${table} twice`, { hint: 'keep one line per table' });
    }
    found.push({ table, fromOffset: offset(match[2], match[3]), toOffset: offset(match[4], match[5]) });
  }
  return found;
}

/** The variables the Parquet views filter `month` on (sql/README.md, Parameters). */
export function monthVariable(table: string, side: 'first' | 'last'): string {
  return `${table}_${side}_month`;
}

const month = (day: string): string => `'${day.slice(0, 7)}'`;

/**
 * `SET VARIABLE` statements for every partitioned table's month bounds: the declared ones from
 * the parameters, NULL (every month) for the rest, so nothing carries over from an earlier query
 * on the same connection.
 */
export function monthStatements(text: string, params: Pick<SqlParams, 'from' | 'to'>): string[] {
  const declared = monthsRead(text);
  return [...PARTITIONED].flatMap((table) => {
    const read = declared.find((m) => m.table === table);
    const first = read !== undefined && params.from !== undefined ? month(addDays(params.from, read.fromOffset)) : 'NULL::VARCHAR';
    const last = read !== undefined && params.to !== undefined ? month(addDays(params.to, read.toOffset)) : 'NULL::VARCHAR';
    return [`SET VARIABLE ${monthVariable(table, 'first')} = ${first}`, `SET VARIABLE ${monthVariable(table, 'last')} = ${last}`];
  });
}
