import type { DuckDBConnection } from '@duckdb/node-api';
import { isDataFileName, monthExpression, monthRangeFilter, type ExportTable } from './tables.js';
import { sql } from '../warehouse/sql-files.js';
import { identifier, literal } from './sql-text.js';
import type { ColumnInfo } from './manifest.js';

/** The rows of one output file as they are in the warehouse now. */
export interface PartitionState {
  /** Path of the file below `<dir>/<table>/`. */
  readonly key: string;
  readonly stream?: string;
  readonly month?: string;
  readonly rows: number;
  readonly fingerprint: string;
}

export async function tableColumns(connection: DuckDBConnection, table: string): Promise<ColumnInfo[]> {
  const reader = await connection.runAndReadAll(sql('export/table-columns.sql'), [table]);
  return reader.getRowObjectsJson().map((row) => ({ name: String(row.name), type: String(row.type) }));
}

/** Hive path segment: `stream=<value>`; percent-encodes anything that is not safe in a path. */
export function partitionKey(stream: string, month: string, fileName: string): string {
  const safe = /^[A-Za-z0-9._-]+$/.test(stream) ? stream : encodeURIComponent(stream);
  return `stream=${safe}/month=${month}/${fileName}`;
}

/**
 * Fingerprints every partition in one scan (the statement is built from the table's columns,
 * so it is generated here rather than kept in sql/): the row count plus the sum and the xor of a hash of
 * every column. Any changed, added or removed row changes it (a reload stamps run_id and
 * loaded_at), and computing it costs far less than writing the file.
 */
export async function fingerprintPartitions(
  connection: DuckDBConnection,
  table: ExportTable,
  columns: readonly ColumnInfo[],
  /** The writer's data file name (dataFileName), the last part of every key. */
  fileName: string,
  only?: readonly PartitionRef[],
): Promise<PartitionState[]> {
  const hash = `hash(${columns.map((c) => identifier(c.name)).join(', ')})`;
  if (!table.partitionBy) {
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::VARCHAR AS n, coalesce(sum(h), 0)::VARCHAR AS s, coalesce(bit_xor(h), 0)::VARCHAR AS x
         FROM (SELECT ${hash} AS h FROM ${identifier(table.name)})`,
    );
    const row = reader.getRowObjectsJson()[0];
    return [{ key: fileName, rows: Number(row.n), fingerprint: `${row.n}:${row.s}:${row.x}` }];
  }
  if (only !== undefined && only.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT stream, month, count(*)::VARCHAR AS n, sum(h)::VARCHAR AS s, bit_xor(h)::VARCHAR AS x
       FROM (SELECT stream, ${monthExpression(table)} AS month, ${hash} AS h FROM ${identifier(table.name)} ${only ? onlyThese(table, only) : ''})
      GROUP BY stream, month
      ORDER BY stream, month`,
  );
  return reader.getRowObjectsJson().map((row) => {
    const stream = String(row.stream);
    const month = String(row.month);
    return { key: partitionKey(stream, month, fileName), stream, month, rows: Number(row.n), fingerprint: `${row.n}:${row.s}:${row.x}` };
  });
}

/** One partition by its stream and month. */
export interface PartitionRef {
  readonly stream: string;
  readonly month: string;
}

/**
 * `stream=<s>/month=<m>/<data file>` → its stream and month; undefined for another shape. With
 * `fileName`, only that writer's file (dataFileName) parses; without, any writer's.
 */
export function parsePartitionKey(key: string, fileName?: string): PartitionRef | undefined {
  const match = /^stream=([^/]+)\/month=(\d{4}-\d{2})\/([^/]+)$/.exec(key);
  if (!match || !(fileName === undefined ? isDataFileName(match[3]) : match[3] === fileName)) return undefined;
  try {
    return { stream: decodeURIComponent(match[1]), month: match[2] };
  } catch {
    return undefined;
  }
}

/**
 * Rows of the given partitions only: one range over their months (DuckDB skips the row groups
 * outside it by their min/max: an export after a one-day sync reads the recent months, not
 * the history) and an exact (stream, month) match.
 */
function onlyThese(table: ExportTable, only: readonly PartitionRef[]): string {
  const months = only.map((p) => p.month).sort();
  // `<stream>/<YYYY-MM>` is unambiguous: the month has a fixed shape at the end.
  const keys = only.map((p) => literal(`${p.stream}/${p.month}`)).join(', ');
  return `WHERE ${monthRangeFilter(table, months[0], months[months.length - 1])}
      AND stream || '/' || ${monthExpression(table)} IN (${keys})`;
}
