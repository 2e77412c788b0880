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
  const widths = fitWidths(naturalWidths(headers, body), width);
  return widths ? renderColumns(headers, body, widths, rightAlign) : renderBlocks(headers, body, width);
}

function naturalWidths(headers: readonly string[], body: readonly (readonly string[])[]): number[] {
  return headers.map((header, index) => Math.max(header.length, ...body.map((row) => row[index].length)));
}

/** Narrows the widest columns one character at a time until the table fits, or undefined. */
function fitWidths(natural: readonly number[], width: number): number[] | undefined {
  const widths = [...natural];
  const room = width - GAP.length * (widths.length - 1);
  let total = widths.reduce((sum, w) => sum + w, 0);
  const floor = (index: number): number => Math.min(natural[index], MIN_COLUMN_WIDTH);
  if (widths.reduce((sum, _, index) => sum + floor(index), 0) > room) return undefined;
  while (total > room) {
    let widest = 0;
    for (let index = 1; index < widths.length; index++) if (widths[index] > widths[widest]) widest = index;
    widths[widest] -= 1;
    total -= 1;
  }
  return widths;
}

function renderColumns(headers: readonly string[], body: readonly (readonly string[])[], widths: readonly number[], rightAlign: readonly boolean[]): string {
  const render = (values: readonly string[]): string[] => {
    const wrapped = values.map((value, index) => wrap(value, widths[index]));
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
  return `${[...render(headers), rule, ...body.flatMap(render)].join('\n')}\n`;
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
