import type { Logger } from '../log/index.js';
import type { S3SettingsInput } from '../lake/settings.js';
import type { ExportStore } from './store.js';

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
