import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import { EtlError, UsageError } from '../errors/index.js';
import { openReadConnection } from '../warehouse/read-connection.js';
import { acquireExportLock } from './export-lock.js';
import { scanTableDir, type FileIdentity, type TableDirState } from './disk-scan.js';
import { fingerprintPartitions, tableColumns, type PartitionState } from './fingerprint.js';
import { MANIFEST_FILE, readManifest, writeManifest, type ColumnInfo, type Manifest, type PartitionEntry, type TableEntry } from './manifest.js';
import { removeFileAndEmptyFolders } from './remove-file.js';
import { EXPORT_TABLES, PARTITION_KEYS, type ExportTable } from './tables.js';
import { makeFolderBelow, writePartitionFile } from './write-file.js';
import { exportEnvironmentError, exportFolderGone, exportNotAFolder, folderIdentity, sameFolder, type FolderIdentity } from './environment-errors.js';
import { staleTempsIn } from './stale-temps.js';
import { tempPrefix } from './atomic-file.js';
import { Pipeline } from './pipeline.js';
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
  /** `parquet.dir`: `<dir>/<table>/…` plus the manifest. */
  readonly dir: string;
  /** Table names; every table of the contract by default. */
  readonly tables?: readonly string[];
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
 * Exports warehouse tables to Parquet, incrementally: a file is rewritten only when its rows'
 * fingerprint (or the file itself) changed since the manifest was written; files whose rows are
 * gone are removed. Every read runs in one transaction, so all files reflect one snapshot.
 */
export async function exportParquet(options: ExportOptions): Promise<ExportReport> {
  const started = performance.now();
  const tables = selectTables(options.tables);
  const dir = resolve(options.dir);
  const path = typeof options.warehouse === 'string' ? options.warehouse : options.warehouse.path;
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw exportNotAFolder(dir);
  let root: FolderIdentity | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    root = folderIdentity(dir);
    if (root === undefined) throw exportFolderGone(dir, undefined);
    const folder: ExportFolder = { dir, identity: root };
    const release = acquireExportLock(dir);
    try {
      sweepManifestTemps(dir, options.logger);
      const source = await openReadConnection(path, {
        shareWithWriters: options.shareWithWriters ?? false,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      try {
        const connection = source.connection;
        let manifest = readManifest(dir);
        const reports: TableExportReport[] = [];
        await connection.run('BEGIN TRANSACTION');
        let progress: ExportProgress | undefined;
        try {
          // Every table is planned before the first file is written: the progress line counts
          // files of the whole export, not of one table at a time.
          const plans: TablePlan[] = [];
          for (const table of tables) plans.push(await planTable(connection, table, folder, manifest, options.logger));
          progress = options.progress?.(plans.reduce((n, plan) => n + plan.toWrite, 0));
          for (const plan of plans) {
            const { report, entry } = await exportTable(connection, plan, folder, options, progress);
            reports.push(report);
            if (entry) {
              // Saved after every table: an interrupted export keeps what it finished.
              manifest = { ...manifest, exportedAt: new Date().toISOString(), tables: { ...manifest.tables, [plan.table.name]: entry } };
              assertSameFolder(folder);
              writeManifest(dir, manifest);
            }
          }
        } finally {
          progress?.stop();
          await connection.run('ROLLBACK').catch(() => undefined);
        }
        const report = { dir, manifest: join(dir, MANIFEST_FILE), tables: reports, seconds: (performance.now() - started) / 1000 };
        options.logger?.info(
          { dir, written: sum(reports, (t) => t.written), removed: sum(reports, (t) => t.removed), seconds: round(report.seconds) },
          'parquet export finished',
        );
        return report;
      } finally {
        await source.close();
      }
    } finally {
      release();
    }
  } catch (error) {
    throw exportEnvironmentError(error, dir, root);
  }
}

/** The export's folder as it was when the export started (see assertSameFolder). */
interface ExportFolder {
  readonly dir: string;
  readonly identity: FolderIdentity;
}

/**
 * Before each file and the manifest: a folder deleted (or deleted and created again) since the
 * export started would get a partial tree and a manifest naming files it does not hold.
 */
function assertSameFolder(folder: ExportFolder): void {
  if (!sameFolder(folder.dir, folder.identity)) throw exportFolderGone(folder.dir, undefined);
}

/** Manifest temps of an export that was killed between writing and renaming the manifest. */
function sweepManifestTemps(dir: string, logger: Logger | undefined): void {
  for (const temp of staleTempsIn(dir, tempPrefix(MANIFEST_FILE))) {
    removeFileAndEmptyFolders(temp, dir);
    logger?.debug({ file: temp }, 'removed a manifest temp file left by an interrupted export');
  }
}

/** What a table's export will do: its rows' partitions now, its folder now, what the manifest says. */
interface TablePlan {
  readonly table: ExportTable;
  /** Time the planning took (fingerprints, folder scan): part of the table's seconds. */
  readonly planMs: number;
  /** Undefined: the warehouse has no such table (skipped). */
  readonly columns?: ColumnInfo[];
  readonly current: readonly PartitionState[];
  readonly disk: TableDirState;
  readonly tableDir: string;
  /** The manifest's entry when the columns are still the same (else every file is rewritten). */
  readonly previous: TableEntry | undefined;
  readonly toWrite: number;
}

async function planTable(
  connection: DuckDBConnection,
  table: ExportTable,
  folder: ExportFolder,
  manifest: Manifest,
  log: Logger | undefined,
): Promise<TablePlan> {
  const started = performance.now();
  const logger = log?.child({ table: table.name });
  const partitioned = table.partitionBy !== undefined;
  const tableDir = join(folder.dir, table.name);
  const columns = await tableColumns(connection, table.name);
  if (columns.length === 0) {
    return {
      table,
      planMs: performance.now() - started,
      current: [],
      disk: { files: new Map(), strays: [], temps: [] },
      tableDir,
      previous: undefined,
      toWrite: 0,
    };
  }
  assertSameFolder(folder);
  makeFolderBelow(folder.dir, tableDir);
  const entry = manifest.tables[table.name];
  // A new column (a later migration) changes every file: start over for this table.
  const previous = entry !== undefined && JSON.stringify(entry.columns) === JSON.stringify(columns) ? entry : undefined;
  const current = await fingerprintPartitions(connection, table, columns);
  const disk = scanTableDir(tableDir, partitioned);
  for (const temp of disk.temps) {
    removeFileAndEmptyFolders(temp, tableDir);
    logger?.debug({ file: temp }, 'removed a temp file left by an interrupted export');
  }
  for (const stray of disk.strays) {
    removeFileAndEmptyFolders(stray, tableDir);
    logger?.warn({ file: stray }, 'removed a Parquet file venue-etl did not write (readers of the folder would mix it in)');
  }
  const toWrite = current.filter((partition) => !isUnchanged(partition, previous?.partitions[partition.key], disk.files.get(partition.key))).length;
  return { table, planMs: performance.now() - started, columns, current, disk, tableDir, previous, toWrite };
}

/** The file on disk is the one the manifest names and its rows' fingerprint is the same. */
function isUnchanged(partition: PartitionState, old: PartitionEntry | undefined, file: FileIdentity | undefined): old is PartitionEntry {
  return (
    old !== undefined &&
    file !== undefined &&
    old.fingerprint === partition.fingerprint &&
    old.ino === file.ino &&
    old.bytes === file.bytes &&
    old.mtimeMs === file.mtimeMs
  );
}

async function exportTable(
  connection: DuckDBConnection,
  plan: TablePlan,
  folder: ExportFolder,
  options: ExportOptions,
  progress: ExportProgress | undefined,
): Promise<{ report: TableExportReport; entry?: TableEntry }> {
  const started = performance.now() - plan.planMs;
  const { table, columns, current, disk, tableDir, previous } = plan;
  const logger = options.logger?.child({ table: table.name });
  const partitioned = table.partitionBy !== undefined;
  if (columns === undefined) {
    logger?.warn('the warehouse has no such table; skipped');
    return { report: { ...emptyReport(table), missing: true } };
  }

  const partitions: Record<string, PartitionEntry> = {};
  let written = 0;
  let unchanged = 0;
  let rowsWritten = 0;
  let bytesWritten = 0;
  // DuckDB writes one file at a time; fsync and rename of the previous ones overlap with it.
  const publishing = new Pipeline(8);
  try {
    for (const partition of current) {
      if (options.signal?.aborted) throw aborted();
      assertSameFolder(folder);
      const old = previous?.partitions[partition.key];
      if (isUnchanged(partition, old, disk.files.get(partition.key))) {
        partitions[partition.key] = old;
        unchanged++;
        continue;
      }
      const publish = await writePartitionFile(connection, table, columns, partition, tableDir, join(tableDir, ...partition.key.split('/')));
      await publishing.add(async () => {
        const identity = await publish();
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
  for (const key of disk.files.keys()) {
    if (partitions[key] !== undefined) continue;
    removeFileAndEmptyFolders(join(tableDir, ...key.split('/')), tableDir);
    removed++;
    logger?.debug({ partition: key }, 'partition removed: its rows are gone');
  }

  const rows = current.reduce((total, p) => total + p.rows, 0);
  const bytes = Object.values(partitions).reduce((total, p) => total + p.bytes, 0);
  const seconds = (performance.now() - started) / 1000;
  logger?.debug({ written, unchanged, removed, rows, bytes, seconds: round(seconds) }, 'table exported');
  const entry: TableEntry = {
    columns,
    partitionedBy: partitioned ? [...PARTITION_KEYS] : [],
    rows,
    bytes,
    exportedAt: new Date().toISOString(),
    partitions,
  };
  return { report: { table: table.name, partitioned, written, unchanged, removed, rows, rowsWritten, bytes, bytesWritten, seconds }, entry };
}

function emptyReport(table: ExportTable): TableExportReport {
  return {
    table: table.name,
    partitioned: table.partitionBy !== undefined,
    written: 0,
    unchanged: 0,
    removed: 0,
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
