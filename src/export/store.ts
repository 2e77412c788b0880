import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
import type { FileIdentity, TableDirState } from './disk-scan.js';
import type { ColumnInfo, Manifest } from './manifest.js';
import type { ExportTable } from './tables.js';
import type { PartitionState } from './fingerprint.js';

/**
 * Where an export's files live: every listing, write and removal of a file and every read and
 * write of the manifest goes through this, so the export logic (what to write) does not know
 * the storage (how). `LocalFolderStore` (local-store.ts) is the first implementation; an
 * object store (list / put a whole object from a local file / get / delete) fits the same
 * shape:
 *
 * - `lock` — one export per target at a time (local: a pid lock file).
 * - `readManifest` / `writeManifest` — the manifest, replaced whole and atomically (local:
 *   temp + fsync + rename; an object store: one PUT, which is atomic per object).
 * - `listTable` — the data files of a table with an identity that changes whenever the file
 *   does (local: size, inode, mtime; an object store: size plus ETag), the files that are not
 *   ours, and stale temps; it removes the temps and strays it finds.
 * - `writePartition` — DuckDB writes the partition to a local temp file (COPY needs a local
 *   path); the returned `publish` makes it the partition's file (local: fsync + rename; an
 *   object store: upload, then delete the temp) and returns its identity.
 * - `remove` — deletes a partition's file whose rows are gone.
 * - `assertIntact` — before each write: the target still is the one the export started on.
 *
 * Partition keys are paths below the table, `stream=<s>/month=<YYYY-MM>/data.parquet` or
 * `data.parquet`: they become object keys `<prefix>/<table>/<key>` as they are.
 */
export interface ExportStore {
  /** For messages and the report: the folder (or URL) written. */
  readonly location: string;
  /** Where the manifest is, for the report. */
  readonly manifestLocation: string;
  lock(): () => void;
  readManifest(): Promise<Manifest>;
  writeManifest(manifest: Manifest): Promise<void>;
  listTable(table: ExportTable, logger: Logger | undefined): Promise<TableDirState>;
  writePartition(
    connection: DuckDBConnection,
    table: ExportTable,
    columns: readonly ColumnInfo[],
    partition: PartitionState,
  ): Promise<() => Promise<FileIdentity>>;
  remove(table: ExportTable, key: string): Promise<void>;
  assertIntact(): void;
}
