/**
 * Sizes and figures of the reliability suite. `npm test` runs the reduced size; with
 * VENUE_ETL_RELIABILITY=full every case runs at its full size. Each test prints its figure as
 * one JSON line (`{"figure": …}`) and, with VENUE_ETL_RELIABILITY_FIGURES=FILE, appends it there
 * too (RELIABILITY.md is written from those lines).
 */
import { appendFileSync } from 'node:fs';

export const FULL = process.env.VENUE_ETL_RELIABILITY === 'full';
export const MODE = FULL ? 'full' : 'reduced';

/** The reduced or the full value of a size. */
export function size<T>(reduced: T, full: T): T {
  return FULL ? full : reduced;
}

/** Test timeout for a case that takes about `reducedMs` reduced and `fullMs` full. */
export function budget(reducedMs: number, fullMs: number): number {
  return FULL ? fullMs : reducedMs;
}

/** Prints one figure line (and appends it to VENUE_ETL_RELIABILITY_FIGURES when set). */
export function reportFigure(name: string, values: Readonly<Record<string, unknown>>): void {
  const line = JSON.stringify({ figure: name, mode: MODE, ...values });
  console.log(line);
  const file = process.env.VENUE_ETL_RELIABILITY_FIGURES;
  if (file) appendFileSync(file, `${line}\n`);
}

/** Prints a table (rows of equal keys) under a figure name, for cases with many rows. */
export function reportTable(name: string, rows: readonly object[]): void {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const cells = rows.map((row) => keys.map((key) => String((row as Record<string, unknown>)[key] ?? '')));
  const widths = keys.map((key, i) => Math.max(key.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log([`${name} (${MODE})`, line(keys), ...cells.map(line)].join('\n'));
}
