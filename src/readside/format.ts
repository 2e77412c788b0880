import { UsageError } from '../errors/index.js';
import { formatCsv } from './format-csv.js';
import { formatJson } from './format-json.js';
import { formatTable } from './format-table.js';
import type { QueryResult } from './query-result.js';

export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'table';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}, got "${value}"`);
}

export function formatResult(result: QueryResult, format: OutputFormat): string {
  switch (format) {
    case 'csv':
      return formatCsv(result);
    case 'json':
      return formatJson(result);
    case 'table':
      return formatTable(result);
  }
}
