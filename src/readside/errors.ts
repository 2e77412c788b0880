import { EtlError } from '../errors/index.js';

/** DuckDB's own message, without the JavaScript wrapper: what a person can act on. */
export function duckdbMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The Node binding prefixes parser errors with the step that failed.
  return message.replace(/^Failed to extract statements: /, '');
}

export function queryFailed(cause: unknown, hint?: string): EtlError {
  return new EtlError('VENUE_SQL_FAILED', duckdbMessage(cause), { cause, hint });
}

export function writeRefused(statement: string, index: number, count: number): EtlError {
  const which = count > 1 ? ` (statement ${index + 1} of ${count})` : '';
  return new EtlError('VENUE_SQL_READ_ONLY', `venue-etl sql is read-only: ${statement} statements are refused${which}`, {
    hint: 'the warehouse is written only by sync, backfill and the receiver; query it with SELECT (or EXPLAIN, SET, PRAGMA, CALL)',
    details: { statement },
  });
}

export function parquetMissing(dir: string): EtlError {
  return new EtlError('VENUE_PARQUET_MISSING', `no exported Parquet files in ${dir}`, {
    hint: 'run `venue-etl export` first, or check parquet.dir in the config',
    details: { dir },
  });
}

/** DuckDB refuses writes on a READ_ONLY open with this message. */
export function isReadOnlyRefusal(error: unknown): boolean {
  return /read-only mode|attached in read-only/i.test(duckdbMessage(error));
}
