import { textValue } from './values.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { PIECE_ROWS, type QueryResult, type ResultColumn } from './query-result.js';

/** RFC 4180: CRLF line ends; a field with a comma, quote or line break is quoted, quotes doubled. */
export function formatCsv(result: QueryResult): string {
  return [...csvPieces(result)].join('');
}

/** The CSV text in pieces: the header, then PIECE_ROWS lines at a time. */
export function* csvPieces(result: QueryResult): Generator<string> {
  yield `${result.columns.map((column) => csvField(column.name)).join(',')}\r\n`;
  const { rows, columns } = result;
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    let text = '';
    for (let r = start; r < Math.min(rows.length, start + PIECE_ROWS); r++) {
      text += csvRecord(rows[r], columns);
    }
    yield text;
  }
}

/** One row's CSV line, with its line end. */
export function csvRecord(row: readonly DuckDBValue[], columns: readonly ResultColumn[]): string {
  return `${row.map((value, index) => csvField(textValue(value, columns[index].type) ?? '')).join(',')}\r\n`;
}

/** One CSV field: quoted when it holds a comma, quote or line break, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
