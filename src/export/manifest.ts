import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

export const MANIFEST_FILE = '_venue_etl_manifest.json';

export interface ColumnInfo {
  readonly name: string;
  readonly type: string;
}

/** What the last export wrote for one partition (or the one file of a small table). */
export interface PartitionEntry {
  readonly rows: number;
  /** `count:sum(hash):bit_xor(hash)` of the partition's rows, computed in SQL. */
  readonly fingerprint: string;
  readonly bytes: number;
  /** Identity of the file as written: a file replaced since (crash, a person) no longer matches. */
  readonly ino: number;
  readonly mtimeMs: number;
  readonly writtenAt: string;
}

export interface TableEntry {
  /** The table's columns in warehouse order, with DuckDB types (for views over the files). */
  readonly columns: readonly ColumnInfo[];
  readonly partitionedBy: readonly string[];
  readonly rows: number;
  readonly bytes: number;
  readonly exportedAt: string;
  /** Keyed by the file's path below `<dir>/<table>/`, e.g. `stream=rating-history/month=2026-01/data.parquet`. */
  readonly partitions: Readonly<Record<string, PartitionEntry>>;
}

/**
 * Which warehouse state the manifest's files follow, for the incremental export: the
 * warehouse's random id and the export generation its marks were last forgotten at. When both
 * equal the warehouse's, every change since the files were written still has its mark.
 */
export interface ManifestChanges {
  readonly warehouseId: string;
  readonly generation: string;
}

export interface Manifest {
  readonly format: 1;
  readonly writer: 'venue-etl';
  readonly exportedAt: string;
  /** Absent: written by a full export that could not forget marks, or by an older venue-etl. */
  readonly changes?: ManifestChanges;
  readonly tables: Readonly<Record<string, TableEntry>>;
}

function emptyManifest(): Manifest {
  return { format: 1, writer: 'venue-etl', exportedAt: new Date(0).toISOString(), tables: {} };
}

/** The manifest of `dir`, or an empty one when missing or unreadable: the export then rewrites everything. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return emptyManifest();
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
    if (parsed.format !== 1 || typeof parsed.tables !== 'object' || parsed.tables === null) return emptyManifest();
    return parsed as Manifest;
  } catch {
    return emptyManifest();
  }
}

export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}
