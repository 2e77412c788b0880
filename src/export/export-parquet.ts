import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import { EtlError, UsageError } from '../errors/index.js';
import { openReadConnection } from '../warehouse/read-connection.js';
import { isCorruption, warehouseCorrupt } from '../warehouse/warehouse-failure.js';
import { forgetExportChanges } from '../warehouse/forget-export-changes.js';
import { fingerprintPartitions, parsePartitionKey, partitionKey, tableColumns, type PartitionRef, type PartitionState } from './fingerprint.js';
import { manifestText, parseManifest, type ColumnInfo, type Manifest, type ManifestChanges, type PartitionEntry, type TableEntry } from './manifest.js';
import { dataFileName, describeWriter, EXPORT_TABLES, PARTITION_KEYS, type ExportTable } from './tables.js';
import { exportEnvironmentError } from './environment-errors.js';
import { Pipeline } from './pipeline.js';
import { readChangeState, seqRanges, whyFull, type ChangeState } from './changes.js';
import { LocalFolderStore } from './local-store.js';
import { isS3Target, parseS3Target } from '../lake/target.js';
import type { S3SettingsInput } from '../lake/settings.js';
import type { ExportStore, StoredFile } from './store.js';
import { copyPartition } from './write-file.js';
import type { ExportReport, TableExportReport } from './export-report.js';

export interface ExportOptions {
  /**
   * The warehouse file, or an open Warehouse (anything with its `path`). Opened read-only;
   * inside a process that already has it open (serve), its instance is shared.
   */
  readonly warehouse: string | { readonly path: string };
  /**
   * For long-running processes that also write the warehouse (`serve`): open it so that the
   * process's writers can open it during the export too. The export only reads either way.
   * Default: READ_ONLY, which any number of other reading processes can share.
   */
  readonly shareWithWriters?: boolean;
  /** `parquet.dir`: `<dir>/<table>/…` plus the manifest; a local folder or `s3://bucket/prefix`. */
  readonly dir: string;
  /** `parquet.s3`: how to reach the object store when `dir` is an s3:// target. */
  readonly s3?: S3SettingsInput;
  /**
   * The writer id (tables.ts, writerId; docs/parquet.md, "Writers and shards: one lake"): names this
   * export's data files and manifest, so several workers export into one lake. '' (default):
   * `data.parquet` and `_venue_etl_manifest.json`.
   */
  readonly writer?: string;
  /**
   * Export as this writer even when its manifest was written by another warehouse (`export
   * --take-over`): this warehouse replaces that one. Otherwise such an export is refused
   * (VENUE_EXPORT_WRITER_TAKEN): two workers with one writer id would delete each other's rows.
   */
  readonly takeOver?: boolean;
  /**
   * Where the files go instead of the local folder `dir` (an object store); `dir` then only
   * names the target in messages.
   */
  readonly store?: ExportStore;
  /** Table names; every table of the contract by default. */
  readonly tables?: readonly string[];
  /**
   * Read every partition of every table instead of the ones the warehouse marked as changed
   * (`venue-etl export --full`). Also taken by itself when the marks cannot be trusted.
   */
  readonly full?: boolean;
  readonly logger?: Logger;
  /** Stops between files; what was written is complete and the next export carries on. */
  readonly signal?: AbortSignal;
  /**
   * Called once every table is planned with the number of files the export will write; told of
   * each file written, and stopped at the end (the CLI draws its progress line from it).
   */
  readonly progress?: (filesPlanned: number) => ExportProgress;
}

export interface ExportProgress {
  fileWritten(rows: number): void;
  stop(): void;
}

export function selectTables(names: readonly string[] | undefined): readonly ExportTable[] {
  if (names === undefined) return EXPORT_TABLES;
  const unknown = names.filter((name) => !EXPORT_TABLES.some((t) => t.name === name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown table${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, `tables: ${EXPORT_TABLES.map((t) => t.name).join(', ')}`);
  }
  return EXPORT_TABLES.filter((t) => names.includes(t.name));
}

/**
 * Exports warehouse tables to Parquet, incrementally. Every commit marks the partitions it
 * touched (src/warehouse/export-changes.ts, in the commit's transaction); the export reads and
 * writes only the marked partitions, plus any whose file no longer matches the manifest, and
 * carries the rest over from the manifest. After the manifest is durably written it forgets
 * exactly the marks its snapshot saw: a commit during the export keeps its marks, an export
 * that stops midway forgets none. Without trustworthy marks (see whyFull) every partition is
 * fingerprinted, as before: a file is rewritten only when its rows' fingerprint (or the file
 * itself) changed; files whose rows are gone are removed. Every read runs in one transaction,
 * so all files reflect one snapshot.
 */
export async function exportParquet(options: ExportOptions): Promise<ExportReport> {
  const started = performance.now();
  const tables = selectTables(options.tables);
  const onObjectStore = options.store === undefined && isS3Target(options.dir);
  const dir = options.store?.location ?? (onObjectStore ? options.dir : resolve(options.dir));
  const path = typeof options.warehouse === 'string' ? options.warehouse : options.warehouse.path;
  let local: LocalFolderStore | undefined;
  try {
    // A warehouse that cannot be read (missing, damaged, from a newer venue-etl) fails the export
    // before it makes the lake's folder: no empty folder is left behind to look like an export.
    if (options.store === undefined && !onObjectStore && !existsSync(dir)) {
      const probe = await openReadConnection(path, {
        shareWithWriters: options.shareWithWriters ?? false,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      await probe.close();
    }
    let store: ExportStore;
    if (options.store !== undefined) store = options.store;
    else if (onObjectStore) store = await openObjectStore(options);
    else store = local = LocalFolderStore.open(dir, options.writer ?? '');
    const release = await store.lock(options.logger);
    try {
      const source = await openReadConnection(path, {
        shareWithWriters: options.shareWithWriters ?? false,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      let manifest: Manifest;
      let state: ChangeState | undefined;
      let fullReason: string | undefined;
      const reports: TableExportReport[] = [];
      try {
        const connection = source.connection;
        manifest = parseManifest(await store.readManifest());
        await connection.run('BEGIN TRANSACTION');
        let progress: ExportProgress | undefined;
        try {
          state = await readChangeState(connection);
          if (state !== undefined) {
            assertWriterFree(manifest, state.warehouseId, store, options.takeOver ?? false);
            manifest = { ...manifest, writerId: store.writer, warehouseId: state.warehouseId };
          }
          fullReason = whyFull(manifest, state, options.full ?? false);
          if (fullReason !== undefined) options.logger?.info({ reason: fullReason }, 'reading every partition');
          // While the export runs, the manifest claims the warehouse state it claimed before
          // only when that claim stays true: the marks since it are not forgotten until the end.
          const claim = fullReason === undefined ? manifest.changes : undefined;
          if (claim === undefined && manifest.changes !== undefined) {
            // A full export that stops midway (--full after a change made with plain SQL) must be
            // finished in full by the next export too: withdraw the claim before the first file.
            manifest = withChanges(manifest, undefined);
            await store.writeManifest(manifestText(manifest));
          }
          // Every table is planned before the first file is written: the progress line counts
          // files of the whole export, not of one table at a time.
          const plans: TablePlan[] = [];
          for (const table of tables) {
            const dirty = fullReason === undefined ? dirtyOf(table, state) : undefined;
            plans.push(await planTable(connection, table, store, manifest, dirty, options.logger));
          }
          progress = options.progress?.(plans.reduce((n, plan) => n + plan.toWrite, 0));
          for (const plan of plans) {
            if (options.signal?.aborted) throw aborted();
            const { report, entry } = await exportTable(connection, plan, store, options, progress);
            reports.push(report);
            if (entry) {
              // Saved after every table: an interrupted export keeps what it finished.
              manifest = withChanges({ ...manifest, exportedAt: new Date().toISOString(), tables: { ...manifest.tables, [plan.table.name]: entry } }, claim);
              await store.writeManifest(manifestText(manifest));
            }
          }
        } finally {
          progress?.stop();
          await connection.run('ROLLBACK').catch(() => undefined);
        }
      } finally {
        // Closed before the marks are forgotten: that opens the file for writing.
        await source.close();
      }
      const forgotten = await settleChanges(store, path, manifest, state, {
        incremental: fullReason === undefined,
        everyTable: EXPORT_TABLES.every((t) => tables.includes(t)),
        exported: reports.filter((r) => !r.missing).map((r) => r.table),
        logger: options.logger,
      });
      const report: ExportReport = {
        dir,
        manifest: store.manifestLocation,
        mode: fullReason === undefined ? 'incremental' : 'full',
        ...(fullReason !== undefined ? { fullReason } : {}),
        changesForgotten: forgotten,
        tables: reports,
        seconds: (performance.now() - started) / 1000,
      };
      options.logger?.info(
        { dir, mode: report.mode, written: sum(reports, (t) => t.written), removed: sum(reports, (t) => t.removed), seconds: round(report.seconds) },
        'parquet export finished',
      );
      return report;
    } finally {
      await release();
    }
  } catch (error) {
    // Read through a plain connection: a corrupt block of the warehouse is named as such here.
    if (isCorruption(error, path)) throw warehouseCorrupt(path, error);
    throw options.store !== undefined || onObjectStore ? error : exportEnvironmentError(error, dir, local?.folder);
  }
}

/**
 * The object store and the AWS SDK behind it are loaded only for an s3:// target: importing the
 * SDK costs 200-400 ms, which every command (even `--version`) paid when it was imported eagerly.
 */
async function openObjectStore(options: ExportOptions): Promise<ExportStore> {
  const parsed = parseS3Target(options.dir);
  // The config check refuses a malformed target first; this is for callers that skip it.
  if ('problem' in parsed) throw new UsageError(`parquet.dir ${parsed.problem}`, 'write s3://bucket/prefix');
  const { ObjectExportStore } = await import('./object-export-store.js');
  return ObjectExportStore.open(parsed.target, options.s3, options.writer ?? '', options.signal);
}

/**
 * Refuses to export as a writer whose manifest another warehouse wrote: two workers with one
 * writer id (a copied config without its own parquet.writer, a shard run twice from two
 * machines) would each delete the other's files as rows that are gone. A manifest that says no
 * warehouse (absent, unreadable, or older) is no conflict.
 */
function assertWriterFree(manifest: Manifest, warehouseId: string, store: ExportStore, takeOver: boolean): void {
  if (takeOver || manifest.warehouseId === undefined || manifest.warehouseId === warehouseId) return;
  const writer = describeWriter(store.writer);
  throw new EtlError(
    'VENUE_EXPORT_WRITER_TAKEN',
    `${writer} of ${store.location} is another warehouse's: its manifest (${store.manifestLocation}) was written by warehouse ${manifest.warehouseId}, not by this one (${warehouseId})`,
    {
      hint: 'give this worker a writer of its own (set parquet.writer to a name of its own, e.g. the tenant), or run `venue-etl export --take-over` if this warehouse replaces that one (its files of this writer are then rewritten from this warehouse)',
      details: { writer: store.writer, manifestWarehouse: manifest.warehouseId, warehouse: warehouseId },
    },
  );
}

function withChanges(manifest: Manifest, changes: ManifestChanges | undefined): Manifest {
  const { changes: _dropped, ...rest } = manifest;
  return changes === undefined ? rest : { ...rest, changes };
}

/**
 * After every table is exported and its manifest written: forgets the marks of the exported
 * tables that the snapshot saw and records a new generation, then writes the manifest once more
 * with the state it now follows. The claim is only made when it is true: an incremental export
 * kept every other mark, a full one read every table. Returns whether marks were forgotten;
 * a failure (the file locked by another process) leaves them, and the next export reads those
 * partitions again.
 */
async function settleChanges(
  store: ExportStore,
  path: string,
  manifest: Manifest,
  state: ChangeState | undefined,
  how: { incremental: boolean; everyTable: boolean; exported: readonly string[]; logger: Logger | undefined },
): Promise<boolean> {
  if (state === undefined || (!how.incremental && !how.everyTable)) return false;
  const newGeneration = randomUUID();
  let forgotten = false;
  try {
    forgotten = await forgetExportChanges(
      path,
      { seqRanges: seqRanges(how.exported.flatMap((table) => state.seqs.get(table) ?? [])), expectedGeneration: state.generation, newGeneration },
      how.logger,
    );
    if (!forgotten) how.logger?.warn('another export forgot changes of this warehouse meanwhile; the next export reads every partition');
  } catch (error) {
    how.logger?.warn({ err: error }, 'could not forget the exported changes (the warehouse is busy); the next export reads them again');
  }
  const generation = forgotten ? newGeneration : state.generation;
  // Not forgotten: the marks since the snapshot are all still there, so the old generation holds.
  const changes = generation === undefined ? undefined : { warehouseId: state.warehouseId, generation };
  await store.writeManifest(manifestText(withChanges(manifest, changes)));
  return forgotten;
}

/** Which partitions of a table the marks name; undefined (every partition) is decided by the caller. */
interface TableDirty {
  readonly partitions: readonly PartitionRef[];
  /** The table is marked at all (unpartitioned tables have one mark per write). */
  readonly marked: boolean;
}

function dirtyOf(table: ExportTable, state: ChangeState | undefined): TableDirty {
  const refs = state?.marked.get(table.name);
  return { partitions: refs ?? [], marked: refs !== undefined };
}

/** What a table's export will do: its rows' partitions now, its folder now, what the manifest says. */
interface TablePlan {
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

async function planTable(
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
function isUnchanged(partition: PartitionState, old: PartitionEntry | undefined, file: StoredFile | undefined): old is PartitionEntry {
  return old !== undefined && old.fingerprint === partition.fingerprint && sameFile(old, file);
}

async function exportTable(
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
      if (options.signal?.aborted) throw aborted();
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

function aborted(): EtlError {
  return new EtlError('VENUE_EXPORT_ABORTED', 'the export was interrupted', {
    hint: 'every file written so far is complete; the next export carries on from there',
  });
}

const sum = (reports: readonly TableExportReport[], pick: (t: TableExportReport) => number): number => reports.reduce((total, t) => total + pick(t), 0);

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
