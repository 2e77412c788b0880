import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import { UsageError } from '../errors/index.js';
import { openReadConnection } from '../warehouse/read-connection.js';
import { isCorruption, warehouseCorrupt } from '../warehouse/warehouse-failure.js';
import { isS3Target, parseS3Target } from '../lake/target.js';
import { EXPORT_TABLES, type ExportTable } from './tables.js';
import { exportEnvironmentError } from './environment-errors.js';
import { LocalFolderStore } from './local-store.js';
import type { ExportStore } from './store.js';
import type { ExportReport, TableExportReport } from './export-report.js';
import type { ExportOptions } from './export-options.js';
import { exportPass, type ExportPass } from './export-pass.js';
import { settleChanges } from './settle-changes.js';
import { round } from './write-table.js';

export type { ExportOptions, ExportProgress } from './export-options.js';

export function selectTables(names: readonly string[] | undefined): readonly ExportTable[] {
  if (names === undefined) return EXPORT_TABLES;
  const unknown = names.filter((name) => !EXPORT_TABLES.some((t) => t.name === name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown table${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, `tables: ${EXPORT_TABLES.map((t) => t.name).join(', ')}`);
  }
  return EXPORT_TABLES.filter((t) => names.includes(t.name));
}

/** Where an export reads and writes, resolved once from its options. */
interface ExportTarget {
  readonly tables: readonly ExportTable[];
  /** The warehouse file. */
  readonly path: string;
  /** The lake as messages name it: an absolute folder, or the s3:// target. */
  readonly dir: string;
  readonly onObjectStore: boolean;
  /** Written to a local folder this export opens itself (not a store given by the caller). */
  readonly inLocalFolder: boolean;
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
 *
 * The phases: check the warehouse can be read, open the store and take its lock, one pass in
 * a read snapshot (export-pass.ts), then forget the exported marks (settle-changes.ts).
 */
export async function exportParquet(options: ExportOptions): Promise<ExportReport> {
  const started = performance.now();
  const target = exportTarget(options);
  let local: LocalFolderStore | undefined;
  try {
    await refuseUnreadableWarehouse(target, options);
    if (target.inLocalFolder) local = LocalFolderStore.open(target.dir, options.writer ?? '');
    const store = options.store ?? local ?? (await openObjectStore(options));
    return await whileLocked(store, options.logger, async () => {
      const pass = await inReadSnapshot(target.path, options, (connection) => exportPass(connection, store, target.tables, options));
      // After the snapshot is closed: forgetting the marks opens the file for writing.
      const forgotten = await settleChanges(store, target.path, pass.manifest, pass.state, {
        incremental: pass.fullReason === undefined,
        everyTable: EXPORT_TABLES.every((t) => target.tables.includes(t)),
        exported: pass.reports.filter((r) => !r.missing).map((r) => r.table),
        logger: options.logger,
      });
      return finishedReport(target, store, pass, forgotten, started, options.logger);
    });
  } catch (error) {
    throw exportFailure(error, target, local);
  }
}

function exportTarget(options: ExportOptions): ExportTarget {
  const onObjectStore = options.store === undefined && isS3Target(options.dir);
  return {
    tables: selectTables(options.tables),
    path: typeof options.warehouse === 'string' ? options.warehouse : options.warehouse.path,
    dir: options.store?.location ?? (onObjectStore ? options.dir : resolve(options.dir)),
    onObjectStore,
    inLocalFolder: options.store === undefined && !onObjectStore,
  };
}

/**
 * A warehouse that cannot be read (missing, damaged, from a newer venue-etl) fails the export
 * before it makes the lake's folder: no empty folder is left behind to look like an export.
 */
async function refuseUnreadableWarehouse(target: ExportTarget, options: ExportOptions): Promise<void> {
  if (!target.inLocalFolder || existsSync(target.dir)) return;
  const probe = await openReadConnection(target.path, readOptions(options));
  await probe.close();
}

async function whileLocked<T>(store: ExportStore, logger: Logger | undefined, work: () => Promise<T>): Promise<T> {
  const release = await store.lock(logger);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Runs `work` in one read transaction of its own connection, rolled back and closed after. */
async function inReadSnapshot<T>(path: string, options: ExportOptions, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const source = await openReadConnection(path, readOptions(options));
  try {
    await source.connection.run('BEGIN TRANSACTION');
    try {
      return await work(source.connection);
    } finally {
      await source.connection.run('ROLLBACK').catch(() => undefined);
    }
  } finally {
    await source.close();
  }
}

function readOptions(options: ExportOptions): { shareWithWriters: boolean; logger?: Logger } {
  return { shareWithWriters: options.shareWithWriters ?? false, ...(options.logger ? { logger: options.logger } : {}) };
}

function finishedReport(
  target: ExportTarget,
  store: ExportStore,
  pass: ExportPass,
  forgotten: boolean,
  started: number,
  logger: Logger | undefined,
): ExportReport {
  const report: ExportReport = {
    dir: target.dir,
    manifest: store.manifestLocation,
    mode: pass.fullReason === undefined ? 'incremental' : 'full',
    ...(pass.fullReason !== undefined ? { fullReason: pass.fullReason } : {}),
    changesForgotten: forgotten,
    tables: pass.reports,
    seconds: (performance.now() - started) / 1000,
  };
  logger?.info(
    {
      dir: target.dir,
      mode: report.mode,
      written: sum(pass.reports, (t) => t.written),
      removed: sum(pass.reports, (t) => t.removed),
      seconds: round(report.seconds),
    },
    'parquet export finished',
  );
  return report;
}

function exportFailure(error: unknown, target: ExportTarget, local: LocalFolderStore | undefined): unknown {
  // Read through a plain connection: a corrupt block of the warehouse is named as such here.
  if (isCorruption(error, target.path)) return warehouseCorrupt(target.path, error);
  return target.inLocalFolder ? exportEnvironmentError(error, target.dir, local?.folder) : error;
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

const sum = (reports: readonly TableExportReport[], pick: (t: TableExportReport) => number): number => reports.reduce((total, t) => total + pick(t), 0);
