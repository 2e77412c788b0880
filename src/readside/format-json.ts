import { jsonValue, type JsonValue } from './values.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { PIECE_ROWS, type QueryResult, type ResultColumn } from './query-result.js';

/** Rows as objects keyed by column name, values as JSON gives them (for documents that hold several results). */
export function jsonRows(result: QueryResult): Record<string, JsonValue>[] {
  return result.rows.map((row) => jsonRow(result, row));
}

function jsonRow(result: QueryResult, row: QueryResult['rows'][number]): Record<string, JsonValue> {
  return jsonObject(row, result.columns);
}

/** One row as an object keyed by column name. */
export function jsonObject(row: readonly DuckDBValue[], columns: readonly ResultColumn[]): Record<string, JsonValue> {
  const object: Record<string, JsonValue> = {};
  columns.forEach((column, index) => {
    object[column.name] = jsonValue(row[index], column.type);
  });
  return object;
}

/** Rows as a JSON array of objects keyed by column name, one object per line. */
export function formatJson(result: QueryResult): string {
  return [...jsonPieces(result)].join('');
}

/** The JSON text in pieces of PIECE_ROWS objects. */
export function* jsonPieces(result: QueryResult): Generator<string> {
  const { rows } = result;
  if (rows.length === 0) {
    yield '[]\n';
    return;
  }
  yield '[\n';
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    let text = '';
    for (let r = start; r < Math.min(rows.length, start + PIECE_ROWS); r++) {
      text += `  ${JSON.stringify(jsonRow(result, rows[r]))}${r === rows.length - 1 ? '\n' : ',\n'}`;
    }
    yield text;
  }
  yield ']\n';
}
