import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

/** A JSON-safe row: BIGINT comes back as a string, so cast counts in SQL (`::INTEGER`, `::DOUBLE`). */
export type Row = Record<string, unknown>;

/**
 * The statements of one unit of work on one connection. Inside `Warehouse.transaction` it runs
 * between BEGIN and COMMIT; `connection` is there for appenders.
 */
export interface Session {
  readonly connection: DuckDBConnection;
  /** Runs a statement; returns the number of rows it changed (0 for DDL). */
  run(sql: string, params?: readonly DuckDBValue[]): Promise<number>;
  /** Runs a query; rows as JSON-safe objects (DATE/TIMESTAMPTZ/UUID as strings). */
  all<T extends Row = Row>(sql: string, params?: readonly DuckDBValue[]): Promise<T[]>;
}

export function sessionOf(connection: DuckDBConnection): Session {
  return {
    connection,
    async run(sql, params) {
      const result = await connection.run(sql, params ? [...params] : undefined);
      return Number(result.rowsChanged);
    },
    async all<T extends Row>(sql: string, params?: readonly DuckDBValue[]) {
      const reader = await connection.runAndReadAll(sql, params ? [...params] : undefined);
      return reader.getRowObjectsJson() as T[];
    },
  };
}
