import { StatementType, type DuckDBConnection, type DuckDBExtractedStatements, type DuckDBResultReader } from '@duckdb/node-api';
import { UsageError, isEtlError } from '../errors/index.js';
import { isReadOnlyRefusal, isSettingLocked, queryFailed, refusedWithoutFiles, settingLocked, transactionEnded, writeRefused } from './errors.js';
import { resultOf, type QueryResult } from './query-result.js';
import type { DryRun } from './dry-run.js';

/**
 * Runs one or more `;`-separated statements and returns the last one's rows. Read-only is
 * DuckDB's to enforce, not ours to guess from statement kinds (PIVOT plans a CREATE TYPE and
 * a SELECT): the text runs in a READ ONLY transaction that is always rolled back, on a source
 * opened without access to other files (see openWarehouseSource, openParquetSource). DuckDB's
 * refusals come back as VENUE_SQL_READ_ONLY, its other errors as VENUE_SQL_FAILED.
 *
 * With `dryRun` (a source that may open files: the lake's data files), each statement DuckDB
 * does not plan as a SELECT first runs where no file can be opened (see dry-run.ts).
 */
export async function runReadOnly(connection: DuckDBConnection, sql: string, dryRun?: DryRun): Promise<QueryResult> {
  // DuckDB answers a text without statements with an opaque "Error in native callback".
  if (withoutComments(sql).replace(/[\s;]/g, '') === '') throw emptyQuery();
  let extracted: DuckDBExtractedStatements;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    throw queryFailed(error);
  }
  if (extracted.count === 0) throw emptyQuery();
  await connection.run('BEGIN TRANSACTION READ ONLY');
  const transaction = await transactionId(connection);
  let last: DuckDBResultReader | undefined;
  try {
    for (let index = 0; index < extracted.count; index++) {
      // A COMMIT or ROLLBACK in the text would let the next statement run outside the guard.
      if (index > 0 && (await transactionId(connection)) !== transaction) throw transactionEnded(index, extracted.count);
      let kind = 'writing';
      try {
        const prepared = await extracted.prepare(index);
        kind = StatementType[prepared.statementType] ?? kind;
        if (dryRun && prepared.statementType !== StatementType.SELECT) await runWithoutFiles(dryRun, sql, index, extracted.count, kind);
        last = await prepared.runAndReadAll();
      } catch (error) {
        if (isEtlError(error)) throw error;
        if (isSettingLocked(error)) throw settingLocked(error);
        if (isReadOnlyRefusal(error)) throw writeRefused(kind, index, extracted.count, error);
        throw queryFailed(error);
      }
    }
  } finally {
    await rollback(connection);
  }
  if (last === undefined) throw emptyQuery();
  return resultOf(last);
}

/** Runs statement `index` of `sql` where no file can be opened; refused if DuckDB refuses it there. */
async function runWithoutFiles(dryRun: DryRun, sql: string, index: number, count: number, kind: string): Promise<void> {
  const connection = await dryRun.connection();
  try {
    const extracted = await connection.extractStatements(sql);
    await (await extracted.prepare(index)).run();
  } catch (error) {
    if (isSettingLocked(error)) throw settingLocked(error);
    if (isReadOnlyRefusal(error)) throw refusedWithoutFiles(kind, index, count, error);
    throw queryFailed(
      error,
      'every statement but a SELECT first runs on empty copies of the tables, where no file can be opened (docs/lake.md, "What a read command can reach"), and failed there',
    );
  }
}

async function transactionId(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll('SELECT txid_current()::VARCHAR AS id');
  return String(reader.getRows()[0]?.[0]);
}

/** The text may have ended the transaction itself; then there is nothing to roll back. */
async function rollback(connection: DuckDBConnection): Promise<void> {
  try {
    await connection.run('ROLLBACK');
  } catch {
    // "no transaction is active": the statements committed or rolled back a read-only transaction.
  }
}

function withoutComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

function emptyQuery(): UsageError {
  return new UsageError('the query has no statement', 'e.g. venue-etl sql "SELECT count(*) AS n FROM series_points"');
}
