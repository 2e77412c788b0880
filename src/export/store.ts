import type { Logger } from '../log/index.js';

/** A data file as the store holds it: its size and a version that changes whenever it is rewritten. */
export interface StoredFile {
  readonly bytes: number;
  /** Local folder: inode and mtime; an object store: the ETag. */
  readonly version: string;
}

/**
 * Where an export's files live. The export decides what to write; every listing, upload,
 * deletion and manifest read or write goes through this, so a local folder (LocalFolderStore)
 * and an object store implement the same few calls:
 *
 * - `lock` — one export per target and writer at a time (local: a pid lock file; an object
 *   store: a lease object); also clears what an interrupted export left behind (temp files).
 * - `readManifest` / `writeManifest` — the manifest's text beside the data, replaced whole
 *   (local: temp + fsync + rename; an object store: one PUT, atomic per object).
 * - `listTable` — this writer's data files of a table by key, with their StoredFile. Other
 *   writers' data files (tables.ts, isDataFileName) are never listed, replaced or deleted; a
 *   local folder removes `*.parquet` files no writer would name so (one glob over the target
 *   must read only what exports wrote), an object store only warns of them (a shared bucket).
 * - `stagingFile` + `put` — DuckDB writes a file to a local path (COPY needs one); `put` makes
 *   it the file at `key` whole, so a reader sees the old file or the new one, never part of
 *   one (local: fsync + rename; an object store: a single or multipart upload), and deletes
 *   the staged file (also when it fails).
 * - `delete` — removes a file whose rows are gone.
 * - `assertIntact` — before each write: the target still is the one the export started on.
 *
 * Keys are paths below the table: `stream=<s>/month=<YYYY-MM>/<data file>` or `<data file>`
 * (tables.ts, dataFileName); an object store names them `<prefix>/<table>/<key>` as they are.
 */
export interface ExportStore {
  /** For messages and the report: the folder (or URL) written. */
  readonly location: string;
  /** The writer id (tables.ts, writerId): '' for the default writer. Names its files and manifest. */
  readonly writer: string;
  /** Where the manifest is, for the report. */
  readonly manifestLocation: string;
  lock(logger: Logger | undefined): Promise<() => Promise<void>>;
  /** The manifest's text; undefined when there is none. */
  readManifest(): Promise<string | undefined>;
  writeManifest(text: string): Promise<void>;
  listTable(table: string, partitioned: boolean, logger: Logger | undefined): Promise<ReadonlyMap<string, StoredFile>>;
  stagingFile(table: string, key: string): Promise<string>;
  put(table: string, key: string, staged: string): Promise<StoredFile>;
  delete(table: string, key: string): Promise<void>;
  assertIntact(): void;
}
