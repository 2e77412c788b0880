/** Header, a dashed rule, then one line per row; `rightAlign[i]` for number columns. */
export function alignedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  rightAlign: readonly boolean[] = [],
  maxCellWidth = 80,
): string {
  const head = headers.map((header) => clip(header, maxCellWidth));
  const body = rows.map((row) => row.map((value) => clip(oneLine(value), maxCellWidth)));
  const widths = head.map((header, index) => Math.max(header.length, ...body.map((row) => row[index]?.length ?? 0)));
  const line = (values: readonly string[]): string =>
    values
      .map((value, index) => (rightAlign[index] ? value.padStart(widths[index]) : value.padEnd(widths[index])))
      .join('  ')
      .trimEnd();
  return `${[line(head), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '\\n').replace(/\t/g, ' ');
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
