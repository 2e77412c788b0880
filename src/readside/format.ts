import { UsageError } from '../errors/index.js';
import { formatCsv } from './format-csv.js';
import { formatJson } from './format-json.js';
import { formatTable } from './format-table.js';
import type { QueryResult } from './query-result.js';

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
  switch (format) {
    case 'csv':
      return formatCsv(result);
    case 'json':
      return formatJson(result);
    case 'table':
      return isExplain(result) ? explainText(result) : formatTable(result, width === undefined ? {} : { width });
  }
}

/** EXPLAIN's plan is a drawing with line breaks: print it as is, not squeezed into a cell. */
function isExplain(result: QueryResult): boolean {
  return result.columns.length === 2 && result.columns[0].name === 'explain_key' && result.columns[1].name === 'explain_value';
}

function explainText(result: QueryResult): string {
  return result.rows.map((row) => `${String(row[1] ?? '')}\n`).join('\n');
}
