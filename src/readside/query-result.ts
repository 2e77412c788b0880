import type { DuckDBResultReader, DuckDBType, DuckDBValue } from '@duckdb/node-api';

export interface ResultColumn {
  readonly name: string;
  readonly type: DuckDBType;
}

/** A fully read result: typed columns and raw DuckDB values, turned into text by the formatters. */
export interface QueryResult {
  readonly columns: readonly ResultColumn[];
  readonly rows: readonly (readonly DuckDBValue[])[];
}

/**
 * Rows per piece of formatted output. The formatters yield their text in pieces of this many rows
 * (~1 MB), which the commands write one by one: a whole result as one string failed at size (V8
 * caps a string at 2^29 characters; peak-hours over 5,000 venues is 519 MB of CSV).
 */
export const PIECE_ROWS = 10_000;

export function resultOf(reader: DuckDBResultReader): QueryResult {
  // Duplicate names (`SELECT 1 AS a, 2 AS a`) would collide as JSON keys.
  const names = reader.deduplicatedColumnNames();
  const types = reader.columnTypes();
  return {
    columns: names.map((name, index) => ({ name, type: types[index] })),
    rows: reader.getRows(),
  };
}

/** The value of `column` in `row`, by name. */
export function cell(result: QueryResult, row: readonly DuckDBValue[], column: string): DuckDBValue {
  const index = result.columns.findIndex((c) => c.name === column);
  return index < 0 ? null : row[index];
}
