import { mkdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { discardTemp } from './atomic-file.js';
import { errnoCode } from './environment-errors.js';
import { monthExpression, monthRangeFilter, type ExportTable } from './tables.js';
import { identifier, literal } from './sql-text.js';
import type { ColumnInfo } from './manifest.js';
import type { PartitionState } from './fingerprint.js';

/** The rows of one partition: exact by the month expression, and a range DuckDB can prune with. */
function partitionFilter(table: ExportTable, partition: PartitionState): string {
  if (!table.partitionBy || partition.stream === undefined || partition.month === undefined) return 'true';
  const range = monthRangeFilter(table, partition.month, partition.month);
  return `stream = ${literal(partition.stream)} AND ${range} AND ${monthExpression(table)} = ${literal(partition.month)}`;
}

/**
 * Creates `folder` below `root`, one level at a time and never `root` itself: if the export's
 * folder is deleted while it runs, the next write fails (and says so) instead of quietly
 * creating a new, partial export tree.
 */
export function makeFolderBelow(root: string, folder: string): void {
  let current = root;
  for (const part of relative(root, folder)
    .split(sep)
    .filter((p) => p !== '')) {
    current = join(current, part);
    try {
      mkdirSync(current);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || !statSync(current).isDirectory()) throw error;
    }
  }
}

/**
 * Writes one partition's rows to the local file `path` (the store's staging file), sorted so
 * unchanged data gives the same bytes. A file that will not be published is deleted at once:
 * on a full disk it holds the space the rest of the export (or the next one) needs.
 */
export async function copyPartition(
  connection: DuckDBConnection,
  table: ExportTable,
  columns: readonly ColumnInfo[],
  partition: PartitionState,
  path: string,
): Promise<void> {
  // The stream of a partitioned table is in the path (hive style), not in the file.
  const fileColumns = columns.filter((c) => !(table.partitionBy && c.name === 'stream'));
  const order = table.orderBy.filter((name) => fileColumns.some((c) => c.name === name));
  try {
    await connection.run(
      `COPY (SELECT ${fileColumns.map((c) => identifier(c.name)).join(', ')}
               FROM ${identifier(table.name)}
              WHERE ${partitionFilter(table, partition)}
              ${order.length > 0 ? `ORDER BY ${order.map(identifier).join(', ')}` : ''})
         TO ${literal(path)} (FORMAT parquet, COMPRESSION zstd)`,
    );
  } catch (error) {
    discardTemp(path);
    throw error;
  }
}
