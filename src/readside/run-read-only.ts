import { StatementType, type DuckDBConnection, type DuckDBResultReader } from '@duckdb/node-api';
import { UsageError } from '../errors/index.js';
import { isReadOnlyRefusal, queryFailed, writeRefused } from './errors.js';
import { resultOf, type QueryResult } from './query-result.js';

/**
 * Statement kinds that only read. COPY, ATTACH, EXPORT and friends are refused too: they write
 * files or attach writable databases even when the warehouse itself is open read-only.
 */
const READING = new Set<StatementType>([
  StatementType.SELECT,
  StatementType.EXPLAIN,
  StatementType.PRAGMA,
  StatementType.CALL,
  StatementType.SET,
  StatementType.VARIABLE_SET,
  StatementType.RELATION,
]);

/**
 * Runs one or more `;`-separated statements and returns the last one's rows. Every statement
 * is checked before it runs; DuckDB's errors come back as VENUE_SQL_FAILED with its message.
 */
export async function runReadOnly(connection: DuckDBConnection, sql: string): Promise<QueryResult> {
  // DuckDB answers a text without statements with an opaque "Error in native callback".
  if (withoutComments(sql).replace(/[\s;]/g, '') === '') throw emptyQuery();
  let extracted;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    throw queryFailed(error);
  }
  if (extracted.count === 0) throw emptyQuery();
  let last: DuckDBResultReader | undefined;
  for (let index = 0; index < extracted.count; index++) {
    try {
      const prepared = await extracted.prepare(index);
      const type = prepared.statementType;
      if (!READING.has(type)) throw writeRefused(StatementType[type] ?? `type ${type}`, index, extracted.count);
      last = await prepared.runAndReadAll();
    } catch (error) {
      if ((error as { code?: string }).code === 'VENUE_SQL_READ_ONLY') throw error;
      if (isReadOnlyRefusal(error)) throw writeRefused('writing', index, extracted.count);
      throw queryFailed(error);
    }
  }
  return resultOf(last as DuckDBResultReader);
}

function withoutComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

function emptyQuery(): UsageError {
  return new UsageError('the query has no statement', 'e.g. venue-etl sql "SELECT count(*) AS n FROM series_points"');
}
