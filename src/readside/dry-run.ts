import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { identifier } from '../export/sql-text.js';
import { utcSession } from '../warehouse/read-connection.js';
import { sql } from '../warehouse/sql-files.js';
import { lockDown } from './lock-down.js';
import { createReportMacros } from './report-macros.js';

/**
 * Where a statement that is not a SELECT runs first: a DuckDB created without access to any
 * file, holding empty tables shaped like the source's views, the reports' macros, and nothing
 * else. DuckDB's file check cannot tell reading a file from writing it (measured on 1.5.5: with
 * a data file allowed, `COPY … TO` that file with USE_TMP_FILE false truncated it, also inside
 * EXPLAIN ANALYZE and a READ ONLY transaction), so the lake's instance, which must read its data
 * files, could overwrite them. Here every file is refused: a statement that runs here opens no
 * file, and only then runs on the lake. A SELECT needs no dry run: it names no file to write,
 * and a file it reads must be one of the lake's (DuckDB's allow-list).
 */
export interface DryRun {
  /** The dry-run connection, inside its own READ ONLY transaction, made on first use. */
  connection(): Promise<DuckDBConnection>;
  /** Interrupts a statement running there (SIGINT, the time limit: watchdog.ts). */
  interrupt(): void;
  close(): void;
}

export function dryRunBeside(source: DuckDBConnection, memoryLimit: string): DryRun {
  let made: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
  let open: DuckDBConnection | undefined;
  return {
    interrupt: () => open?.interrupt(),
    connection: async () => {
      made ??= makeDryRun(source, memoryLimit);
      open = (await made).connection;
      return open;
    },
    close() {
      // Made or not: a dry run that failed to open has nothing to close, and says so nowhere.
      void made?.then(
        ({ instance, connection }) => {
          connection.closeSync();
          instance.closeSync();
        },
        () => undefined,
      );
    },
  };
}

async function makeDryRun(source: DuckDBConnection, memoryLimit: string): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(':memory:', { enable_external_access: 'false' });
  const connection = await instance.connect();
  try {
    await utcSession(connection);
    const views = (await source.runAndReadAll(sql('readside/view-names.sql'))).getRows().map((row) => String(row[0]));
    for (const view of views) {
      const columns = (await source.runAndReadAll(`DESCRIBE ${identifier(view)}`)).getRowObjectsJS();
      const list = columns.map((c) => `${identifier(String(c.column_name))} ${String(c.column_type)}`).join(', ');
      await connection.run(`CREATE TABLE ${identifier(view)} (${list})`);
    }
    await createReportMacros(connection);
    await lockDown(connection, { memoryLimit });
    await connection.run('BEGIN TRANSACTION READ ONLY');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return { instance, connection };
}
