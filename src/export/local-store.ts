import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../log/index.js';
import { acquireExportLock } from './export-lock.js';
import { dataTempPrefix, identityOf, scanTableDir } from './disk-scan.js';
import { manifestFileName } from './manifest.js';
import { removeFileAndEmptyFolders } from './remove-file.js';
import { makeFolderBelow } from './write-file.js';
import { exportFolderGone, exportNotAFolder, folderIdentity, sameFolder, type FolderIdentity } from './environment-errors.js';
import { staleTempsIn } from './stale-temps.js';
import { discardTemp, publishFileAsync, tempPrefix, writeFileAtomic } from './atomic-file.js';
import type { ExportStore, StoredFile } from './store.js';

/**
 * The export's store on a local folder: `<dir>/<table>/<key>` plus the writer's manifest
 * (manifestFileName). Several writers can export into one folder: each lists, replaces and
 * deletes only its own data files (dataFileName) and holds its own lock.
 */
export class LocalFolderStore implements ExportStore {
  readonly manifestLocation: string;

  private constructor(
    readonly location: string,
    readonly writer: string,
    /** The folder as it was when the export started (see assertIntact). */
    private readonly identity: FolderIdentity,
  ) {
    this.manifestLocation = join(location, manifestFileName(writer));
  }

  /** Creates the folder when missing; `location` must be absolute. `writer`: '' for the default writer. */
  static open(dir: string, writer = ''): LocalFolderStore {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw exportNotAFolder(dir);
    mkdirSync(dir, { recursive: true });
    const identity = folderIdentity(dir);
    if (identity === undefined) throw exportFolderGone(dir, undefined);
    return new LocalFolderStore(dir, writer, identity);
  }

  /** The folder's identity at open, for exportEnvironmentError. */
  get folder(): FolderIdentity {
    return this.identity;
  }

  lock(logger: Logger | undefined): Promise<() => Promise<void>> {
    const release = acquireExportLock(this.location, this.writer);
    // Manifest temps of an export killed between writing and renaming the manifest.
    for (const temp of staleTempsIn(this.location, tempPrefix(manifestFileName(this.writer)))) {
      removeFileAndEmptyFolders(temp, this.location);
      logger?.debug({ file: temp }, 'removed a manifest temp file left by an interrupted export');
    }
    return Promise.resolve(() => Promise.resolve(release()));
  }

  readManifest(): Promise<string | undefined> {
    return Promise.resolve(existsSync(this.manifestLocation) ? readFileSync(this.manifestLocation, 'utf8') : undefined);
  }

  writeManifest(text: string): Promise<void> {
    this.assertIntact();
    writeFileAtomic(this.manifestLocation, text);
    return Promise.resolve();
  }

  listTable(table: string, partitioned: boolean, logger: Logger | undefined): Promise<ReadonlyMap<string, StoredFile>> {
    this.assertIntact();
    const tableDir = join(this.location, table);
    makeFolderBelow(this.location, tableDir);
    const disk = scanTableDir(tableDir, partitioned, this.writer);
    for (const temp of disk.temps) {
      removeFileAndEmptyFolders(temp, tableDir);
      logger?.debug({ file: temp }, 'removed a temp file left by an interrupted export');
    }
    for (const stray of disk.strays) {
      removeFileAndEmptyFolders(stray, tableDir);
      // Only files no writer would name so (tables.ts, isDataFileName): other writers' files are never touched.
      logger?.warn({ file: stray }, 'removed a Parquet file venue-etl did not write (readers of the folder would mix it in)');
    }
    return Promise.resolve(disk.files);
  }

  /** A hidden temp beside the file (no `*.parquet` glob matches it): the rename is then atomic. */
  stagingFile(table: string, key: string): Promise<string> {
    const target = this.path(table, key);
    makeFolderBelow(join(this.location, table), dirname(target));
    return Promise.resolve(join(dirname(target), `${dataTempPrefix(this.writer)}${process.pid}`));
  }

  /** fsync, then rename over the old file: a reader, or a crash at any point, sees one complete file. */
  async put(table: string, key: string, staged: string): Promise<StoredFile> {
    const target = this.path(table, key);
    try {
      await publishFileAsync(staged, target);
    } catch (error) {
      discardTemp(staged);
      throw error;
    }
    return identityOf(target);
  }

  delete(table: string, key: string): Promise<void> {
    removeFileAndEmptyFolders(this.path(table, key), join(this.location, table));
    return Promise.resolve();
  }

  /**
   * A folder deleted (or deleted and created again) since the export started would get a
   * partial tree and a manifest naming files it does not hold.
   */
  assertIntact(): void {
    if (!sameFolder(this.location, this.identity)) throw exportFolderGone(this.location, undefined);
  }

  private path(table: string, key: string): string {
    return join(this.location, table, ...key.split('/'));
  }
}
