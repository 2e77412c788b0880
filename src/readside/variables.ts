import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors/index.js';

/** Parameters of reports and checks, passed as DuckDB variables (`getvariable('from_date')`). */
export interface SqlParams {
  /** First day, inclusive (`YYYY-MM-DD`, UTC). */
  readonly from?: string | undefined;
  /** Last day, inclusive. */
  readonly to?: string | undefined;
  readonly venues?: readonly string[] | undefined;
  readonly staleAfterDays?: number | undefined;
  /** `freshness.streams`: days behind a stream may be, per stream (others: staleAfterDays). */
  readonly staleTargets?: Readonly<Record<string, number>>;
  /** Streams the config syncs: a check flags those without any cursor. */
  readonly streams?: readonly string[];
  /** `stream/metric` pairs a report keeps (peak-hours); every one when unset. */
  readonly metrics?: readonly string[] | undefined;
  /** IANA time zone a report reads local hours and weekdays in (peak-hours); UTC when unset. */
  readonly tz?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const text = (value: string): string => `'${value.replace(/'/g, "''")}'`;
const list = (values: readonly string[] | undefined): string => (values === undefined ? 'NULL::VARCHAR[]' : `[${values.map(text).join(', ')}]::VARCHAR[]`);

const targets = (values: Readonly<Record<string, number>> | undefined): string =>
  `MAP {${Object.entries(values ?? {})
    .map(([stream, days]) => `${text(stream)}: ${Math.trunc(days)}`)
    .join(', ')}}::MAP(VARCHAR, INTEGER)`;

/**
 * The `SET VARIABLE` statements a person would type in the DuckDB CLI before running the file.
 * Unset parameters are NULL, which every report reads as "no limit".
 */
export function variableStatements(params: SqlParams): string[] {
  checkSqlParams(params);
  return [
    `SET VARIABLE from_date = ${params.from === undefined ? 'NULL::DATE' : `DATE ${text(params.from)}`}`,
    `SET VARIABLE to_date = ${params.to === undefined ? 'NULL::DATE' : `DATE ${text(params.to)}`}`,
    `SET VARIABLE venue_ids = ${list(params.venues?.map((v) => v.toLowerCase()))}`,
    `SET VARIABLE stale_after_days = ${params.staleAfterDays === undefined ? 'NULL::INTEGER' : `${Math.trunc(params.staleAfterDays)}::INTEGER`}`,
    `SET VARIABLE stale_targets = ${targets(params.staleTargets)}`,
    `SET VARIABLE expected_streams = ${list(params.streams)}`,
    `SET VARIABLE metrics = ${list(params.metrics)}`,
    `SET VARIABLE tz = ${text(params.tz ?? 'UTC')}`,
  ];
}

/**
 * Refuses parameters no report can use (usage errors, exit 2). Pure: commands call it before
 * they open anything, so a bad argument is reported the same whether or not the warehouse exists.
 */
export function checkSqlParams(params: SqlParams): void {
  for (const date of [params.from, params.to]) {
    if (date !== undefined && !DATE.test(date)) throw new UsageError(`not a date YYYY-MM-DD: "${date}"`);
  }
  for (const venue of params.venues ?? []) {
    if (!UUID.test(venue)) throw new UsageError(`--venues takes venue ids (UUIDs), got "${venue}"`);
  }
  if (params.tz !== undefined && !isTimeZone(params.tz)) {
    throw new UsageError(
      `--tz takes an IANA time zone, got "${params.tz}"`,
      'e.g. --tz Europe/Berlin or --tz America/New_York (timestamps stay UTC in the warehouse)',
    );
  }
  if (params.from !== undefined && params.to !== undefined && params.from > params.to) {
    throw new UsageError(`--from ${params.from} is after --to ${params.to}`);
  }
}

export async function setVariables(connection: DuckDBConnection, params: SqlParams): Promise<void> {
  for (const statement of variableStatements(params)) await connection.run(statement);
}

/** Whether Intl knows the zone (the ICU data DuckDB also reads). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}
