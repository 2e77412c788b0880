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
  readonly width?: number;
  readonly maxCellWidth?: number;
  /**
   * Columns whose cells are never split across lines (timestamps, ids, numbers): such a column is
   * narrowed only down to its widest cell (its header wraps), and when the table cannot fit so,
   * each row is printed as a block instead.
   */
  readonly keepWhole?: readonly boolean[];
}

/** A column is narrowed to this at most before the table turns into one block per row. */
const MIN_COLUMN_WIDTH = 8;
const GAP = '  ';

/** Header, a dashed rule, then one line (or a few, wrapped) per row. */
export function alignedTable(headers: readonly string[], rows: readonly (readonly string[])[], layout: TableLayout = {}): string {
  const body = rows.map((row) => headers.map((_, index) => oneLine(row[index] ?? '')));
  const { width, rightAlign = [] } = layout;
  if (width === undefined) {
    const max = layout.maxCellWidth ?? 80;
    return renderColumns(
      headers.map((h) => cut(h, max)),
      body.map((row) => row.map((value) => cut(value, max))),
      naturalWidths(headers, body),
      rightAlign,
    );
  }
  const widths = fitWidths(headers, body, width, layout.keepWhole ?? []);
  return widths ? renderColumns(headers, body, widths, rightAlign) : renderBlocks(headers, body, width);
}

function naturalWidths(headers: readonly string[], body: readonly (readonly string[])[]): number[] {
  return headers.map((header, index) => Math.max(header.length, ...body.map((row) => row[index].length)));
}

/** Headers wrap after `_` too (`hours_since_load`), cells do not (a name like `series_points` stays whole). */
const HEADER_BREAKS = ',/-_';

/**
 * Column widths that fit `width`, or undefined. First headers wider than their cells are wrapped
 * (down to their longest word), then the widest cells wrapped, one character at a time, each
 * column down to MIN_COLUMN_WIDTH; a `keepWhole` column never below its widest cell.
 */
function fitWidths(headers: readonly string[], body: readonly (readonly string[])[], width: number, keepWhole: readonly boolean[]): number[] | undefined {
  const natural = naturalWidths(headers, body);
  const cells = headers.map((_, index) => Math.max(0, ...body.map((row) => row[index].length)));
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

function renderColumns(headers: readonly string[], body: readonly (readonly string[])[], widths: readonly number[], rightAlign: readonly boolean[]): string {
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
  return `${[...render(headers, HEADER_BREAKS), rule, ...body.flatMap((row) => render(row))].join('\n')}\n`;
}

/** One block per row (like psql's expanded display): for tables too wide for any columns. */
function renderBlocks(headers: readonly string[], body: readonly (readonly string[])[], width: number): string {
  const nameWidth = Math.min(Math.max(...headers.map((h) => h.length)), Math.floor(width / 3));
  const valueWidth = Math.max(1, width - nameWidth - GAP.length);
  const blocks = body.map((row, rowIndex) => {
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
  });
  return blocks.length === 0 ? `${headers.join(GAP).slice(0, width)}\n(none)\n` : `${blocks.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
