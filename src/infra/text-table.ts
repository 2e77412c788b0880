import { wrap } from './text-wrap.js';

export interface TableLayout {
  /** Number columns, right-aligned (`rightAlign[i]` for column i). */
  readonly rightAlign?: readonly boolean[];
  /**
   * Width of the screen: the table is laid out to fit it. Wide columns are narrowed and their
   * cells wrapped onto more lines (nothing is cut); when even narrow columns do not fit, each
   * row is printed as a block of `column  value` lines. Undefined (a pipe with no `COLUMNS`):
   * one line per row, cells cut at `maxCellWidth`.
   */
  readonly width?: number | undefined;
  readonly maxCellWidth?: number | undefined;
  /**
   * Columns whose cells are never split across lines (timestamps, ids, numbers): such a column is
   * narrowed only down to its widest cell (its header wraps), and when the table cannot fit so,
   * each row is printed as a block instead.
   */
  readonly keepWhole?: readonly boolean[] | undefined;
}

/** A column is narrowed to this at most before the table turns into one block per row. */
const MIN_COLUMN_WIDTH = 8;
const GAP = '  ';

/** Rows rendered per piece of `alignedTablePieces` (a few hundred KB of text). */
const PIECE_ROWS = 5_000;

/** Header, a dashed rule, then one line (or a few, wrapped) per row. */
export function alignedTable(headers: readonly string[], rows: readonly (readonly string[])[], layout: TableLayout = {}): string {
  return [...alignedTablePieces(headers, rows, layout)].join('');
}

/**
 * `alignedTable` in pieces of at most PIECE_ROWS rows, for tables of millions of rows: their text
 * as one string can pass V8's limit on a string's length. Cells are made one line (and cut) as
 * each piece is rendered, not copied for the whole table first (4.8M rows of 10 cells: the copies
 * ran the heap out).
 */
export function* alignedTablePieces(headers: readonly string[], rows: readonly (readonly string[])[], layout: TableLayout = {}): Generator<string> {
  const { width, rightAlign = [] } = layout;
  const cells = cellWidths(headers.length, rows);
  const natural = headers.map((header, index) => Math.max(header.length, cells[index]));
  const clean = (row: readonly string[]) => headers.map((_, index) => oneLine(row[index] ?? ''));
  if (width === undefined) {
    const max = layout.maxCellWidth ?? 80;
    const cutRow = (row: readonly string[]) => clean(row).map((value) => cut(value, max));
    yield* renderColumns(
      headers.map((h) => cut(h, max)),
      rows,
      cutRow,
      natural,
      rightAlign,
    );
    return;
  }
  const widths = fitWidths(headers, cells, natural, width, layout.keepWhole ?? []);
  yield* widths ? renderColumns(headers, rows, clean, widths, rightAlign) : renderBlocks(headers, rows, clean, width);
}

/**
 * The longest cell of each column, made one line (a loop: spreading millions of cells into
 * Math.max overflows the stack).
 */
function cellWidths(columns: number, rows: readonly (readonly string[])[]): number[] {
  const widths = new Array<number>(columns).fill(0);
  for (const row of rows) {
    for (let index = 0; index < columns; index++) {
      const length = oneLine(row[index] ?? '').length;
      if (length > widths[index]) widths[index] = length;
    }
  }
  return widths;
}

/** Headers wrap after `_` too (`hours_since_load`), cells do not (a name like `series_points` stays whole). */
const HEADER_BREAKS = ',/-_';

/**
 * Column widths that fit `width`, or undefined. First headers wider than their cells are wrapped
 * (down to their longest word), then the widest cells wrapped, one character at a time, each
 * column down to MIN_COLUMN_WIDTH; a `keepWhole` column never below its widest cell.
 */
function fitWidths(
  headers: readonly string[],
  cells: readonly number[],
  natural: readonly number[],
  width: number,
  keepWhole: readonly boolean[],
): number[] | undefined {
  const word = headers.map((header) => Math.max(...header.split(/(?<=[,/\-_ ])/).map((piece) => piece.trimEnd().length)));
  const headerOnly = natural.map((n, index) => Math.max(cells[index], Math.min(n, word[index])));
  const floors = natural.map((n, index) => (keepWhole[index] ? headerOnly[index] : Math.min(n, MIN_COLUMN_WIDTH)));
  const widths = [...natural];
  const room = width - GAP.length * (widths.length - 1);
  let total = widths.reduce((sum, w) => sum + w, 0);
  if (floors.reduce((sum, w) => sum + w, 0) > room) return undefined;
  for (const floor of [headerOnly.map((w, index) => Math.max(w, floors[index])), floors]) {
    while (total > room) {
      let widest = -1;
      for (let index = 0; index < widths.length; index++) if (widths[index] > floor[index] && (widest < 0 || widths[index] > widths[widest])) widest = index;
      if (widest < 0) break;
      widths[widest] -= 1;
      total -= 1;
    }
  }
  return total > room ? undefined : widths;
}

function* renderColumns(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  prepare: (row: readonly string[]) => readonly string[],
  widths: readonly number[],
  rightAlign: readonly boolean[],
): Generator<string> {
  const render = (values: readonly string[], breaks?: string): string[] => {
    const wrapped = values.map((value, index) => wrap(value, widths[index], breaks));
    const height = Math.max(1, ...wrapped.map((lines) => lines.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      lines.push(
        wrapped
          .map((cellLines, index) => {
            const text = cellLines[line] ?? '';
            return rightAlign[index] ? text.padStart(widths[index]) : text.padEnd(widths[index]);
          })
          .join(GAP)
          .trimEnd(),
      );
    }
    return lines;
  };
  const rule = widths.map((w) => '-'.repeat(w)).join(GAP);
  yield `${[...render(headers, HEADER_BREAKS), rule].join('\n')}\n`;
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    const lines = rows.slice(start, start + PIECE_ROWS).flatMap((row) => render(prepare(row)));
    yield `${lines.join('\n')}\n`;
  }
}

/** One block per row (like psql's expanded display): for tables too wide for any columns. */
function* renderBlocks(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  prepare: (row: readonly string[]) => readonly string[],
  width: number,
): Generator<string> {
  const nameWidth = Math.min(Math.max(...headers.map((h) => h.length)), Math.floor(width / 3));
  const valueWidth = Math.max(1, width - nameWidth - GAP.length);
  const block = (row: readonly string[], rowIndex: number): string => {
    const title = `-[ ${rowIndex + 1} ]`;
    const lines = [`${title}${'-'.repeat(Math.max(0, Math.min(width, 40) - title.length))}`];
    headers.forEach((header, index) => {
      const names = wrap(header, nameWidth);
      const values = wrap(row[index], valueWidth);
      const height = Math.max(names.length, values.length);
      for (let line = 0; line < height; line++) {
        lines.push(`${(names[line] ?? '').padEnd(nameWidth)}${GAP}${values[line] ?? ''}`.trimEnd());
      }
    });
    return lines.join('\n');
  };
  if (rows.length === 0) {
    yield `${headers.join(GAP).slice(0, width)}\n(none)\n`;
    return;
  }
  for (let start = 0; start < rows.length; start += PIECE_ROWS) {
    yield `${rows
      .slice(start, start + PIECE_ROWS)
      .map((row, offset) => block(prepare(row), start + offset))
      .join('\n')}\n`;
  }
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
