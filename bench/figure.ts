/** One row of the benchmark table: a measured figure beside its physical limit and target. */
export interface Figure {
  readonly id: string;
  readonly what: string;
  /** The measurement as a person reads it, e.g. `15.1 s`. */
  readonly measured: string;
  /** What it is compared with, e.g. `ideal 11.5 s`. */
  readonly limit: string;
  /** measured ÷ limit (or limit ÷ measured when more is better), as shown. */
  readonly ratio: string;
  readonly target: string;
  /** Undefined when the figure could not be measured here. */
  readonly met: boolean | undefined;
  /** What the figure is made of, for the notes under the table. */
  readonly notes?: readonly string[];
}

export function notMeasured(id: string, what: string, target: string, reason: string): Figure {
  return { id, what, measured: 'not measured', limit: '-', ratio: '-', target, met: undefined, notes: [reason] };
}

export const COLUMNS = ['id', 'what', 'measured', 'limit', 'ratio', 'target', 'met'] as const;

function cells(figure: Figure): string[] {
  return [figure.id, figure.what, figure.measured, figure.limit, figure.ratio, figure.target, figure.met === undefined ? '-' : figure.met ? 'yes' : 'no'];
}

/** Plain text, columns padded, for a terminal. */
export function plainTable(figures: readonly Figure[]): string {
  const rows = [COLUMNS.slice() as string[], ...figures.map(cells)];
  const widths = COLUMNS.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function markdownTable(figures: readonly Figure[]): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
  return [`| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map(() => '---').join('|')}|`, ...figures.map((f) => `| ${cells(f).map(escapeCell).join(' | ')} |`)].join(
    '\n',
  );
}

export const fmt = {
  seconds: (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`,
  ms: (ms: number): string => `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`,
  ratio: (value: number): string => `${value.toFixed(2)}x`,
  count: (n: number): string => Math.round(n).toLocaleString('en-US'),
  rate: (perSecond: number): string =>
    perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)}M` : perSecond >= 1e4 ? `${Math.round(perSecond / 1e3)}k` : `${Math.round(perSecond)}`,
  mb: (bytes: number): string => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`,
};
