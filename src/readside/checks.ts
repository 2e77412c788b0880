import type { DuckDBConnection } from '@duckdb/node-api';
import { isWarehouseFailure } from '../warehouse/warehouse-failure.js';
import { duckdbMessage, isInterrupt } from './errors.js';
import { listNamedSql } from './named-sql.js';
import { runNamedSql } from './run-named.js';
import { textValue } from './values.js';
import type { SqlParams } from './variables.js';
import type { QueryResult } from './query-result.js';

export type CheckStatus = 'ok' | 'failed' | 'error';

export interface CheckResult {
  readonly name: string;
  readonly description: string;
  readonly status: CheckStatus;
  /** Offending rows found (0 when ok). */
  readonly rows: number;
  /** The first offending row as `column=value` pairs, or the error message. */
  readonly sample: string;
  readonly result?: QueryResult;
}

/**
 * Runs every `sql/checks/*.sql`. A check passes when its query returns no rows; a check that
 * cannot run at all is an error, not a pass.
 */
export async function runChecks(connection: DuckDBConnection, params: SqlParams): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of listNamedSql('checks')) {
    try {
      const result = await runNamedSql(connection, check, params);
      results.push({
        name: check.name,
        description: check.description,
        status: result.rows.length === 0 ? 'ok' : 'failed',
        rows: result.rows.length,
        sample: result.rows.length === 0 ? '' : sampleOf(result),
        result,
      });
    } catch (error) {
      // A corrupt warehouse is not a check that did not pass: nothing it holds can be trusted.
      if (isWarehouseFailure(error)) throw error;
      // Stopped (SIGINT, the time limit): no further check runs, the command says why.
      if (isInterrupt(error) || isInterrupt((error as { cause?: unknown }).cause)) throw error;
      results.push({ name: check.name, description: check.description, status: 'error', rows: 0, sample: duckdbMessage(error) });
    }
  }
  return results;
}

function sampleOf(result: QueryResult): string {
  const row = result.rows[0];
  return result.columns.map((column, index) => `${column.name}=${textValue(row[index], column.type) ?? 'NULL'}`).join(' ');
}
