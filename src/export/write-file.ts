import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { discardTemp, publishFileAsync } from './atomic-file.js';
import { errnoCode } from './environment-errors.js';
import { identityOf, TEMP_PREFIX, type FileIdentity } from './disk-scan.js';
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
 * Writes one partition's rows to a hidden temp file in the partition's folder (no `*.parquet`
 * glob matches it) and returns a function that publishes it: fsync, then rename over the old
 * file. A reader, or a crash at any point, sees the old complete file or the new complete one.
 * Publishing is separate so the export can fsync one file while DuckDB writes the next.
 */
export async function writePartitionFile(
  connection: DuckDBConnection,
  table: ExportTable,
  columns: readonly ColumnInfo[],
  partition: PartitionState,
  tableDir: string,
  target: string,
): Promise<() => Promise<FileIdentity>> {
  const folder = dirname(target);
  makeFolderBelow(tableDir, folder);
  const temp = join(folder, `${TEMP_PREFIX}${process.pid}`);
  // The stream of a partitioned table is in the path (hive style), not in the file.
  const fileColumns = columns.filter((c) => !(table.partitionBy && c.name === 'stream'));
  const order = table.orderBy.filter((name) => fileColumns.some((c) => c.name === name));
  // A temp that will not be published is deleted at once: on a full disk it holds the space
  // the rest of the export (or the next one) needs.
  try {
    await connection.run(
      `COPY (SELECT ${fileColumns.map((c) => identifier(c.name)).join(', ')}
               FROM ${identifier(table.name)}
              WHERE ${partitionFilter(table, partition)}
              ${order.length > 0 ? `ORDER BY ${order.map(identifier).join(', ')}` : ''})
         TO ${literal(temp)} (FORMAT parquet, COMPRESSION zstd)`,
    );
  } catch (error) {
    discardTemp(temp);
    throw error;
  }
  return async () => {
    try {
      await publishFileAsync(temp, target);
    } catch (error) {
      discardTemp(temp);
      throw error;
    }
    return identityOf(target);
  };
}
