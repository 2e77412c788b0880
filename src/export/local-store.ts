import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import { acquireExportLock } from './export-lock.js';
import { scanTableDir, type FileIdentity, type TableDirState } from './disk-scan.js';
import { MANIFEST_FILE, readManifest, writeManifest, type ColumnInfo, type Manifest } from './manifest.js';
import { removeFileAndEmptyFolders } from './remove-file.js';
import type { ExportTable } from './tables.js';
import { makeFolderBelow, writePartitionFile } from './write-file.js';
import { exportFolderGone, exportNotAFolder, folderIdentity, sameFolder, type FolderIdentity } from './environment-errors.js';
import { staleTempsIn } from './stale-temps.js';
import { tempPrefix } from './atomic-file.js';
import type { PartitionState } from './fingerprint.js';
import type { ExportStore } from './store.js';

/** The export's store on a local folder: `<dir>/<table>/<key>` plus `<dir>/_venue_etl_manifest.json`. */
export class LocalFolderStore implements ExportStore {
  readonly manifestLocation: string;

  private constructor(
    readonly location: string,
    /** The folder as it was when the export started (see assertIntact). */
    private readonly identity: FolderIdentity,
  ) {
    this.manifestLocation = join(location, MANIFEST_FILE);
  }

  /** Creates the folder when missing; `location` must be absolute. */
  static open(dir: string): LocalFolderStore {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw exportNotAFolder(dir);
    mkdirSync(dir, { recursive: true });
    const identity = folderIdentity(dir);
    if (identity === undefined) throw exportFolderGone(dir, undefined);
    return new LocalFolderStore(dir, identity);
  }

  /** The folder's identity at open, for exportEnvironmentError. */
  get folder(): FolderIdentity {
    return this.identity;
  }

  lock(): () => void {
    return acquireExportLock(this.location);
  }

  readManifest(): Promise<Manifest> {
    return Promise.resolve(readManifest(this.location));
  }

  writeManifest(manifest: Manifest): Promise<void> {
    this.assertIntact();
    writeManifest(this.location, manifest);
    return Promise.resolve();
  }

  /** Manifest temps of an export that was killed between writing and renaming the manifest. */
  sweepManifestTemps(logger: Logger | undefined): void {
    for (const temp of staleTempsIn(this.location, tempPrefix(MANIFEST_FILE))) {
      removeFileAndEmptyFolders(temp, this.location);
      logger?.debug({ file: temp }, 'removed a manifest temp file left by an interrupted export');
    }
  }

  listTable(table: ExportTable, logger: Logger | undefined): Promise<TableDirState> {
    this.assertIntact();
    const tableDir = this.tableDir(table);
    makeFolderBelow(this.location, tableDir);
    const disk = scanTableDir(tableDir, table.partitionBy !== undefined);
    for (const temp of disk.temps) {
      removeFileAndEmptyFolders(temp, tableDir);
      logger?.debug({ file: temp }, 'removed a temp file left by an interrupted export');
    }
    for (const stray of disk.strays) {
      removeFileAndEmptyFolders(stray, tableDir);
      logger?.warn({ file: stray }, 'removed a Parquet file venue-etl did not write (readers of the folder would mix it in)');
    }
    return Promise.resolve(disk);
  }

  writePartition(
    connection: DuckDBConnection,
    table: ExportTable,
    columns: readonly ColumnInfo[],
    partition: PartitionState,
  ): Promise<() => Promise<FileIdentity>> {
    const tableDir = this.tableDir(table);
    return writePartitionFile(connection, table, columns, partition, tableDir, join(tableDir, ...partition.key.split('/')));
  }

  remove(table: ExportTable, key: string): Promise<void> {
    const tableDir = this.tableDir(table);
    removeFileAndEmptyFolders(join(tableDir, ...key.split('/')), tableDir);
    return Promise.resolve();
  }

  /**
   * A folder deleted (or deleted and created again) since the export started would get a
   * partial tree and a manifest naming files it does not hold.
   */
  assertIntact(): void {
    if (!sameFolder(this.location, this.identity)) throw exportFolderGone(this.location, undefined);
  }

  private tableDir(table: ExportTable): string {
    return join(this.location, table.name);
  }
}
