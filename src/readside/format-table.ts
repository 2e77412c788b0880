import { DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { isNumericType, textValue } from './values.js';
import type { QueryResult } from './query-result.js';

export interface TableOptions {
  /** Longer cells are cut with `…` so one long message does not push every column off screen. */
  readonly maxCellWidth?: number;
  /** Print `(N rows)` after the table. */
  readonly footer?: boolean;
}

/** An aligned text table for people: numbers right-aligned, NULL shown as `NULL`. */
export function formatTable(result: QueryResult, options: TableOptions = {}): string {
  const cells = result.rows.map((row) => row.map((value, index) => toSeconds(textValue(value, result.columns[index].type) ?? 'NULL', value)));
  const table = alignedTable(
    result.columns.map((column) => column.name),
    cells,
    result.columns.map((column) => isNumericType(column.type)),
    options.maxCellWidth,
  );
  const footer = (options.footer ?? true) ? `(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})\n` : '';
  return `${table}${footer}`;
}

/** Header, a dashed rule, then one line per row; `rightAlign[i]` for number columns. */
export function alignedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  rightAlign: readonly boolean[] = [],
  maxCellWidth = 80,
): string {
  const head = headers.map((header) => fit(header, maxCellWidth));
  const body = rows.map((row) => row.map((value) => fit(oneLine(value), maxCellWidth)));
  const widths = head.map((header, index) => Math.max(header.length, ...body.map((row) => row[index]?.length ?? 0)));
  const line = (values: readonly string[]): string =>
    values
      .map((value, index) => (rightAlign[index] ? value.padStart(widths[index]) : value.padEnd(widths[index])))
      .join('  ')
      .trimEnd();
  return `${[line(head), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n')}\n`;
}

/** Timestamps to the second in the table (csv and json keep microseconds): narrower columns. */
function toSeconds(text: string, value: DuckDBValue): string {
  return value instanceof DuckDBTimestampTZValue || value instanceof DuckDBTimestampValue ? text.replace(/\.\d+(Z?)$/, '$1') : text;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
}

function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
