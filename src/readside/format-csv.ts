import { textValue } from './values.js';
import { PIECE_ROWS, type QueryResult } from './query-result.js';

/** RFC 4180: CRLF line ends; a field with a comma, quote or line break is quoted, quotes doubled. */
export function formatCsv(result: QueryResult): string {
  return [...csvPieces(result)].join('');
}

/** The CSV text in pieces: the header, then PIECE_ROWS lines at a time. */
export function* csvPieces(result: QueryResult): Generator<string> {
  yield `${result.columns.map((column) => field(column.name)).join(',')}\r\n`;
  const { rows, columns } = result;
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    let text = '';
    for (let r = start; r < Math.min(rows.length, start + PIECE_ROWS); r++) {
      text += `${rows[r].map((value, index) => field(textValue(value, columns[index].type) ?? '')).join(',')}\r\n`;
    }
    yield text;
  }
}

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
