import { StatementType, type DuckDBConnection, type DuckDBExtractedStatements, type DuckDBPreparedStatement, type DuckDBResultReader } from '@duckdb/node-api';
import { UsageError, isEtlError } from '../errors/index.js';
import { isReadOnlyRefusal, isSettingLocked, queryFailed, refusedWithoutFiles, settingLocked, transactionEnded, writeRefused } from './errors.js';
import { resultOf, type QueryResult } from './query-result.js';
import type { DryRun } from './dry-run.js';
import { writeResult, type OutputFormat } from './format.js';
import { lastStatementText } from './statement-text.js';
import { writeText } from './text-output.js';

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
  return readOnly(connection, sql, dryRun, async (last) => resultOf(await runLast(last)));
}

async function runLast(last: LastStatement): Promise<DuckDBResultReader> {
  try {
    return await last.prepared.runAndReadAll();
  } catch (error) {
    throw last.failed(error);
  }
}

/** Where and how a read's rows are written. */
export interface ReadOutput {
  readonly out: NodeJS.WritableStream;
  readonly format: OutputFormat;
  /** The terminal's width, for the table. */
  readonly width?: number | undefined;
}

/**
 * Runs `sql` as runReadOnly does and writes the last statement's rows to `out` in `format`
 * (csv and json formatted by DuckDB where it can: text-output.ts); returns how many rows.
 */
export async function writeReadOnly(connection: DuckDBConnection, sql: string, output: ReadOutput, dryRun?: DryRun): Promise<number> {
  const { out, format, width } = output;
  return readOnly(connection, sql, dryRun, async (last) => {
    if (format !== 'table') {
      // A statement DuckDB does not write is known before it runs (a failed prepare leaves the
      // transaction as it was): then JavaScript writes it, in the same transaction.
      const statement = await lastStatementText(connection, sql, last.count);
      const rows = statement === undefined ? undefined : await writeText(connection, last.prepared, statement, format, out, last.failed);
      if (rows !== undefined) return rows;
    }
    const result = resultOf(await runLast(last));
    await writeResult(out, result, format, width);
    return result.rows.length;
  });
}

/** The last statement of a read, prepared in its transaction, for the caller to run. */
interface LastStatement {
  readonly prepared: DuckDBPreparedStatement;
  /** How many statements the text holds. */
  readonly count: number;
  /** The error to throw for DuckDB's error running it (the caller's output errors are its own). */
  readonly failed: (error: unknown) => Error;
}

async function readOnly<T>(connection: DuckDBConnection, sql: string, dryRun: DryRun | undefined, finish: (last: LastStatement) => Promise<T>): Promise<T> {
  // DuckDB answers a text without statements with an opaque "Error in native callback".
  if (withoutComments(sql).replace(/[\s;]/g, '') === '') throw emptyQuery();
  let extracted: DuckDBExtractedStatements;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    throw queryFailed(error);
  }
  const count = extracted.count;
  if (count === 0) throw emptyQuery();
  await connection.run('BEGIN TRANSACTION READ ONLY');
  const transaction = await transactionId(connection);
  try {
    for (let index = 0; ; index++) {
      // A COMMIT or ROLLBACK in the text would let the next statement run outside the guard.
      if (index > 0 && (await transactionId(connection)) !== transaction) throw transactionEnded(index, count);
      let kind = 'writing';
      const failed = (error: unknown): Error => statementFailed(error, kind, index, count);
      let prepared: DuckDBPreparedStatement;
      try {
        prepared = await extracted.prepare(index);
        kind = StatementType[prepared.statementType] ?? kind;
        if (dryRun && prepared.statementType !== StatementType.SELECT) await runWithoutFiles(dryRun, sql, index, count, kind);
        if (index < count - 1) {
          await prepared.run();
          continue;
        }
      } catch (error) {
        throw failed(error);
      }
      return await finish({ prepared, count, failed });
    }
  } finally {
    await rollback(connection);
  }
}

/** DuckDB's error running statement `index` of `count`, as the read side reports it. */
function statementFailed(error: unknown, kind: string, index: number, count: number): Error {
  if (isEtlError(error)) return error;
  if (isSettingLocked(error)) return settingLocked(error);
  if (isReadOnlyRefusal(error)) return writeRefused(kind, index, count, error);
  return queryFailed(error);
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
