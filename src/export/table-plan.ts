import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import type { ChangeState } from './changes.js';
import { fingerprintPartitions, parsePartitionKey, partitionKey, tableColumns, type PartitionRef, type PartitionState } from './fingerprint.js';
import type { ColumnInfo, Manifest, PartitionEntry, TableEntry } from './manifest.js';
import type { ExportStore, StoredFile } from './store.js';
import { dataFileName, type ExportTable } from './tables.js';

/** Which partitions of a table the marks name; undefined (every partition) is decided by the caller. */
export interface TableDirty {
  readonly partitions: readonly PartitionRef[];
  /** The table is marked at all (unpartitioned tables have one mark per write). */
  readonly marked: boolean;
}

export function dirtyOf(table: ExportTable, state: ChangeState | undefined): TableDirty {
  const refs = state?.marked.get(table.name);
  return { partitions: refs ?? [], marked: refs !== undefined };
}

/** What a table's export will do: its rows' partitions now, its folder now, what the manifest says. */
export interface TablePlan {
  readonly table: ExportTable;
  /** Time the planning took (fingerprints, folder scan): part of the table's seconds. */
  readonly planMs: number;
  /** Undefined: the warehouse has no such table (skipped). */
  readonly columns?: ColumnInfo[];
  /** The partitions read this time (all of them on the full path), with rows. */
  readonly current: readonly PartitionState[];
  /** Manifest entries not read this time: unmarked, and their file is the one the manifest names. */
  readonly carried: Readonly<Record<string, PartitionEntry>>;
  /** Our files in the store now, by key. */
  readonly disk: ReadonlyMap<string, StoredFile>;
  /** The manifest's entry when the columns are still the same (else every file is rewritten). */
  readonly previous: TableEntry | undefined;
  readonly toWrite: number;
  /** Partitions whose rows were read this time (with rows or emptied). */
  readonly checked: number;
}

export async function planTable(
  connection: DuckDBConnection,
  table: ExportTable,
  store: ExportStore,
  manifest: Manifest,
  dirty: TableDirty | undefined,
  log: Logger | undefined,
): Promise<TablePlan> {
  const started = performance.now();
  const logger = log?.child({ table: table.name });
  const partitioned = table.partitionBy !== undefined;
  const fileName = dataFileName(store.writer);
  const columns = await tableColumns(connection, table.name);
  if (columns.length === 0) {
    const disk = new Map<string, StoredFile>();
    return { table, planMs: performance.now() - started, current: [], carried: {}, disk, previous: undefined, toWrite: 0, checked: 0 };
  }
  const entry = manifest.tables[table.name];
  // A new column (a later migration) changes every file: start over for this table.
  const previous = entry !== undefined && JSON.stringify(entry.columns) === JSON.stringify(columns) ? entry : undefined;
  const disk = await store.listTable(table.name, partitioned, logger);
  let current: PartitionState[];
  let checked: number;
  const carried: Record<string, PartitionEntry> = {};
  if (dirty === undefined || previous === undefined) {
    current = await fingerprintPartitions(connection, table, columns, fileName);
    checked = current.length;
  } else {
    // The marked partitions, plus every file that is not what the manifest says (edited,
    // deleted, or not in it): the cheap folder scan catches what the marks cannot.
    const keys = new Set<string>();
    if (partitioned) for (const ref of dirty.partitions) keys.add(partitionKey(ref.stream, ref.month, fileName));
    else if (dirty.marked) keys.add(fileName);
    for (const [key, old] of Object.entries(previous.partitions)) if (!sameFile(old, disk.get(key))) keys.add(key);
    for (const key of disk.keys()) if (previous.partitions[key] === undefined) keys.add(key);
    for (const [key, old] of Object.entries(previous.partitions)) if (!keys.has(key)) carried[key] = old;
    checked = keys.size;
    if (!partitioned) current = keys.size > 0 ? await fingerprintPartitions(connection, table, columns, fileName) : [];
    else {
      const refs = [...keys].map((key) => parsePartitionKey(key, fileName)).filter((ref): ref is PartitionRef => ref !== undefined);
      current = await fingerprintPartitions(connection, table, columns, fileName, refs);
    }
  }
  const toWrite = current.filter((partition) => !isUnchanged(partition, previous?.partitions[partition.key], disk.get(partition.key))).length;
  return { table, planMs: performance.now() - started, columns, current, carried, disk, previous, toWrite, checked };
}

/** The file is the one the manifest names (same size and identity). */
function sameFile(old: PartitionEntry, file: StoredFile | undefined): boolean {
  return file !== undefined && old.version === file.version && old.bytes === file.bytes;
}

/** The file on disk is the one the manifest names and its rows' fingerprint is the same. */
export function isUnchanged(partition: PartitionState, old: PartitionEntry | undefined, file: StoredFile | undefined): old is PartitionEntry {
  return old !== undefined && old.fingerprint === partition.fingerprint && sameFile(old, file);
}
