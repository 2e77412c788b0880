import type { DuckDBConnection } from '@duckdb/node-api';

async function statementCount(connection: DuckDBConnection, text: string): Promise<number | undefined> {
  try {
    return (await connection.extractStatements(text)).count;
  } catch {
    return undefined;
  }
}

/** Semicolons tried before giving up: a last statement with more in its comments is rare. */
const MAX_TRIES = 64;

/**
 * The text of the last of the `count` statements of `sql`, found by DuckDB's parser, not by
 * guessing at quotes and comments: the text after a semicolon that parses as one statement,
 * where the text before it parses as the other count - 1. Undefined when none is found.
 */
export async function lastStatementText(connection: DuckDBConnection, sql: string, count: number): Promise<string | undefined> {
  if (count === 1) return sql;
  let tries = 0;
  for (let at = sql.replace(/[\s;]+$/, '').lastIndexOf(';'); at >= 0 && tries < MAX_TRIES; at = sql.lastIndexOf(';', at - 1), tries++) {
    const last = sql.slice(at + 1);
    if ((await statementCount(connection, last)) !== 1) continue;
    if ((await statementCount(connection, sql.slice(0, at + 1))) === count - 1) return last;
  }
  return undefined;
}
