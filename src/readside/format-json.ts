import { jsonValue, type JsonValue } from './values.js';
import type { QueryResult } from './query-result.js';

/** Rows as objects keyed by column name, values as JSON gives them (for documents that hold several results). */
export function jsonRows(result: QueryResult): Record<string, JsonValue>[] {
  return result.rows.map((row) => {
    const object: Record<string, JsonValue> = {};
    result.columns.forEach((column, index) => {
      object[column.name] = jsonValue(row[index], column.type);
    });
    return object;
  });
}

/** Rows as a JSON array of objects keyed by column name, one object per line. */
export function formatJson(result: QueryResult): string {
  const objects = jsonRows(result).map((object) => JSON.stringify(object));
  return objects.length === 0 ? '[]\n' : `[\n${objects.map((o) => `  ${o}`).join(',\n')}\n]\n`;
}
