import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors/index.js';
import { monthStatements } from './months-read.js';
import { runReadOnly } from './run-read-only.js';
import { setVariables, type SqlParams } from './variables.js';
import type { NamedSql } from './named-sql.js';
import type { QueryResult } from './query-result.js';

/**
 * Runs a report or check file after setting its parameters as DuckDB variables, and the month
 * bounds its `-- Parquet months read:` lines give (read by the views of `--parquet` only).
 */
export async function runNamedSql(connection: DuckDBConnection, named: NamedSql, params: SqlParams): Promise<QueryResult> {
  await setVariables(connection, params);
  try {
    for (const statement of monthStatements(named.text, params)) await connection.run(statement);
    return await runReadOnly(connection, named.text);
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
