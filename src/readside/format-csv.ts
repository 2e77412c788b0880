import { textValue } from './values.js';
import type { QueryResult } from './query-result.js';

/** RFC 4180: CRLF line ends; a field with a comma, quote or line break is quoted, quotes doubled. */
export function formatCsv(result: QueryResult): string {
  const lines = [
    result.columns.map((column) => field(column.name)).join(','),
    ...result.rows.map((row) => row.map((value, index) => field(textValue(value, result.columns[index].type) ?? '')).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
