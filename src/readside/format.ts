import { UsageError } from '../errors/index.js';
import { csvPieces } from './format-csv.js';
import { jsonPieces } from './format-json.js';
import { tablePieces } from './format-table.js';
import type { QueryResult } from './query-result.js';
import { writePiece } from '../infra/write-piece.js';

export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--format`: table by default; `allowed` narrows it for commands whose output is not rows (table or json). */
export function parseFormat(value: string | undefined, allowed: readonly OutputFormat[] = OUTPUT_FORMATS): OutputFormat {
  if (value === undefined) return 'table';
  const match = allowed.find((format) => format === value);
  if (match !== undefined) return match;
  throw new UsageError(`--format must be one of ${allowed.join(', ')}, got "${value}"`);
}

export function formatResult(result: QueryResult, format: OutputFormat, width?: number): string {
  return [...resultPieces(result, format, width)].join('');
}

/** The formatted result in pieces of at most PIECE_ROWS rows (query-result.ts says why). */
export function resultPieces(result: QueryResult, format: OutputFormat, width?: number): Iterable<string> {
  switch (format) {
    case 'csv':
      return csvPieces(result);
    case 'json':
      return jsonPieces(result);
    case 'table':
      return isExplain(result) ? [explainText(result)] : tablePieces(result, { width });
  }
}

/**
 * Writes the formatted result to `out` piece by piece, waiting for the stream to drain when its
 * buffer is full: a result of millions of rows is never one string, nor all in the buffer at once.
 */
export async function writeResult(out: NodeJS.WritableStream, result: QueryResult, format: OutputFormat, width?: number): Promise<void> {
  for (const piece of resultPieces(result, format, width)) {
    await writePiece(out, piece);
  }
}

/** EXPLAIN's plan is a drawing with line breaks: print it as is, not squeezed into a cell. */
function isExplain(result: QueryResult): boolean {
  return result.columns.length === 2 && result.columns[0].name === 'explain_key' && result.columns[1].name === 'explain_value';
}

function explainText(result: QueryResult): string {
  return result.rows.map((row) => `${String(row[1] ?? '')}\n`).join('\n');
}
