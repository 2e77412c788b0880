import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors/index.js';
import { monthStatements } from './months-read.js';
import { runReadOnly, writeReadOnly, type ReadOutput } from './run-read-only.js';
import { setVariables, type SqlParams } from './variables.js';
import type { NamedSql } from './named-sql.js';
import type { QueryResult } from './query-result.js';

/**
 * Runs a report or check file after setting its parameters as DuckDB variables, and the month
 * bounds its `-- Parquet months read:` lines give (read by the views of `--parquet` only).
 */
export async function runNamedSql(connection: DuckDBConnection, named: NamedSql, params: SqlParams): Promise<QueryResult> {
  return withNamedSql(connection, named, params, () => runReadOnly(connection, named.text));
}

/** Runs a report or check file as runNamedSql does and writes its rows to `output`; returns how many. */
export async function writeNamedSql(connection: DuckDBConnection, named: NamedSql, params: SqlParams, output: ReadOutput): Promise<number> {
  return withNamedSql(connection, named, params, () => writeReadOnly(connection, named.text, output));
}

async function withNamedSql<T>(connection: DuckDBConnection, named: NamedSql, params: SqlParams, run: () => Promise<T>): Promise<T> {
  await setVariables(connection, params);
  try {
    for (const statement of monthStatements(named.text, params)) await connection.run(statement);
    return await run();
  } catch (error) {
    if (error instanceof EtlError && error.code === 'VENUE_SQL_FAILED') {
      throw new EtlError('VENUE_SQL_FAILED', `${named.name}: ${error.message}`, {
        hint: error.hint ?? `the query is in ${named.file}`,
        cause: error,
      });
    }
    throw error;
  }
}
