import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors/index.js';
import type { ExportOptions, ExportProgress } from './export-options.js';
import type { TableExportReport } from './export-report.js';
import type { PartitionEntry, TableEntry } from './manifest.js';
import { Pipeline } from './pipeline.js';
import type { ExportStore } from './store.js';
import { isUnchanged, type TablePlan } from './table-plan.js';
import { PARTITION_KEYS, type ExportTable } from './tables.js';
import { copyPartition } from './write-file.js';

export async function exportTable(
  connection: DuckDBConnection,
  plan: TablePlan,
  store: ExportStore,
  options: ExportOptions,
  progress: ExportProgress | undefined,
): Promise<{ report: TableExportReport; entry?: TableEntry }> {
  const started = performance.now() - plan.planMs;
  const { table, columns, current, carried, disk, previous, checked } = plan;
  const logger = options.logger?.child({ table: table.name });
  const partitioned = table.partitionBy !== undefined;
  if (columns === undefined) {
    logger?.warn('the warehouse has no such table; skipped');
    return { report: { ...emptyReport(table), missing: true } };
  }

  const partitions: Record<string, PartitionEntry> = { ...carried };
  let written = 0;
  let unchanged = Object.keys(carried).length;
  let rowsWritten = 0;
  let bytesWritten = 0;
  // DuckDB writes one file at a time; fsync and rename of the previous ones overlap with it.
  const publishing = new Pipeline(8);
  try {
    for (const partition of current) {
      if (options.signal?.aborted) throw exportAborted();
      store.assertIntact();
      const old = previous?.partitions[partition.key];
      if (isUnchanged(partition, old, disk.get(partition.key))) {
        partitions[partition.key] = old;
        unchanged++;
        continue;
      }
      const staged = await store.stagingFile(table.name, partition.key);
      await copyPartition(connection, table, columns, partition, staged);
      await publishing.add(async () => {
        const identity = await store.put(table.name, partition.key, staged);
        partitions[partition.key] = { rows: partition.rows, fingerprint: partition.fingerprint, ...identity, writtenAt: new Date().toISOString() };
        written++;
        rowsWritten += partition.rows;
        bytesWritten += identity.bytes;
        progress?.fileWritten(partition.rows);
        logger?.debug({ partition: partition.key, rows: partition.rows, bytes: identity.bytes }, 'partition written');
      });
    }
  } catch (error) {
    // Let the files in flight finish (they are complete either way); report the first error.
    await publishing.drain().catch(() => undefined);
    throw error;
  }
  await publishing.drain();

  let removed = 0;
  for (const key of disk.keys()) {
    if (partitions[key] !== undefined) continue;
    await store.delete(table.name, key);
    removed++;
    logger?.debug({ partition: key }, 'partition removed: its rows are gone');
  }

  const rows = Object.values(partitions).reduce((total, p) => total + p.rows, 0);
  const bytes = Object.values(partitions).reduce((total, p) => total + p.bytes, 0);
  const seconds = (performance.now() - started) / 1000;
  logger?.debug({ written, unchanged, removed, rows, bytes, checked, seconds: round(seconds) }, 'table exported');
  const entry: TableEntry = {
    columns,
    partitionedBy: partitioned ? [...PARTITION_KEYS] : [],
    rows,
    bytes,
    exportedAt: new Date().toISOString(),
    partitions,
  };
  return {
    report: { table: table.name, partitioned, written, unchanged, removed, checked, rows, rowsWritten, bytes, bytesWritten, seconds },
    entry,
  };
}

function emptyReport(table: ExportTable): TableExportReport {
  return {
    table: table.name,
    partitioned: table.partitionBy !== undefined,
    written: 0,
    unchanged: 0,
    removed: 0,
    checked: 0,
    rows: 0,
    rowsWritten: 0,
    bytes: 0,
    bytesWritten: 0,
    seconds: 0,
  };
}

/** The export stopped on a signal between files. */
export function exportAborted(): EtlError {
  return new EtlError('VENUE_EXPORT_ABORTED', 'the export was interrupted', {
    hint: 'every file written so far is complete; the next export carries on from there',
  });
}

export const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
