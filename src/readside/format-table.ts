import { DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { alignedTablePieces } from '../infra/text-table.js';
import { isNumericType, textValue } from './values.js';
import type { QueryResult, ResultColumn } from './query-result.js';

export interface TableOptions {
  /** Longer cells are cut with `…` so one long message does not push every column off screen. */
  readonly maxCellWidth?: number;
  /** Print `(N rows)` after the table. */
  readonly footer?: boolean;
  /** Screen width to fit (wrapping cells instead of cutting them); see `alignedTable`. */
  readonly width?: number | undefined;
  /** Columns whose values are never split across lines (see `alignedTable`'s keepWhole). */
  readonly keepWhole?: (column: ResultColumn) => boolean;
}

/** An aligned text table for people: numbers right-aligned, NULL shown as `NULL`. */
export function formatTable(result: QueryResult, options: TableOptions = {}): string {
  return [...tablePieces(result, options)].join('');
}

/** `formatTable` in pieces (see alignedTablePieces). */
export function* tablePieces(result: QueryResult, options: TableOptions = {}): Generator<string> {
  const cells = result.rows.map((row) => row.map((value, index) => toSeconds(textValue(value, result.columns[index].type) ?? 'NULL', value)));
  yield* alignedTablePieces(
    result.columns.map((column) => column.name),
    cells,
    {
      rightAlign: result.columns.map((column) => isNumericType(column.type)),
      maxCellWidth: options.maxCellWidth,
      width: options.width,
      keepWhole: options.keepWhole === undefined ? undefined : result.columns.map(options.keepWhole),
    },
  );
  if (options.footer ?? true) yield `(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})\n`;
}

/** Timestamps to the second in the table (csv and json keep microseconds): narrower columns. */
function toSeconds(text: string, value: DuckDBValue): string {
  return value instanceof DuckDBTimestampTZValue || value instanceof DuckDBTimestampValue ? text.replace(/\.\d+(Z?)$/, '$1') : text;
}
