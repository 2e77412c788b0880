import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-file.js';

export const MANIFEST_FILE = '_venue_etl_manifest.json';

/** A writer's manifest at the lake root: MANIFEST_FILE for the default writer, `_venue_etl_manifest-<id>.json` otherwise. */
export function manifestFileName(writer = ''): string {
  return writer === '' ? MANIFEST_FILE : `_venue_etl_manifest-${writer}.json`;
}

/**
 * The manifest's format. 2: a file's identity is `bytes` + `version` (a local file's inode and
 * mtime, an object's ETag) and the manifest says which warehouse state it follows (`changes`).
 * A manifest of another format is read as none: the export then reads every partition.
 */
export const MANIFEST_FORMAT = 2;

const columnSchema = z.object({ name: z.string(), type: z.string() });

const partitionSchema = z.object({
  rows: z.number(),
  /** `count:sum(hash):bit_xor(hash)` of the partition's rows, computed in SQL. */
  fingerprint: z.string(),
  bytes: z.number(),
  /** Identity of the file as written: a file replaced since (crash, a person) no longer matches. */
  version: z.string(),
  writtenAt: z.string(),
});

const tableSchema = z.object({
  /** The table's columns in warehouse order, with DuckDB types (for views over the files). */
  columns: z.array(columnSchema).readonly(),
  partitionedBy: z.array(z.string()).readonly(),
  rows: z.number(),
  bytes: z.number(),
  exportedAt: z.string(),
  /** Keyed by the file's path below `<dir>/<table>/`, e.g. `stream=rating-history/month=2026-01/data.parquet`. */
  partitions: z.record(z.string(), partitionSchema.readonly()).readonly(),
});

/**
 * Which warehouse state the manifest's files follow, for the incremental export: the
 * warehouse's random id and the export generation its marks were last forgotten at. When both
 * equal the warehouse's, every change since the files were written still has its mark.
 */
const changesSchema = z.object({ warehouseId: z.string(), generation: z.string() });

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  writer: z.literal('venue-etl'),
  exportedAt: z.string(),
  /** The writer id (docs/parquet.md, "Writers and shards: one lake"); '' for the default writer. Absent in older manifests. */
  writerId: z.string().optional(),
  /**
   * The warehouse (warehouse_meta's id) whose export wrote the manifest: another warehouse
   * exporting as the same writer is refused (VENUE_EXPORT_WRITER_TAKEN). Absent in older manifests.
   */
  warehouseId: z.string().optional(),
  /** Absent: written by a full export that could not forget marks. */
  changes: changesSchema.readonly().optional(),
  tables: z.record(z.string(), tableSchema.readonly()).readonly(),
});

export type ColumnInfo = Readonly<z.infer<typeof columnSchema>>;
export type PartitionEntry = Readonly<z.infer<typeof partitionSchema>>;
export type TableEntry = Readonly<z.infer<typeof tableSchema>>;
export type ManifestChanges = Readonly<z.infer<typeof changesSchema>>;
export type Manifest = Readonly<z.infer<typeof manifestSchema>>;

export function emptyManifest(): Manifest {
  return { format: MANIFEST_FORMAT, writer: 'venue-etl', exportedAt: new Date(0).toISOString(), tables: {} };
}

/** A manifest's text as a store holds it; an empty manifest when absent, unreadable or of another format. */
export function parseManifest(text: string | undefined): Manifest {
  if (text === undefined) return emptyManifest();
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : emptyManifest();
  } catch {
    return emptyManifest();
  }
}

export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A writer's manifest in a local folder `dir` (see parseManifest). */
export function readManifest(dir: string, writer = ''): Manifest {
  const path = join(dir, manifestFileName(writer));
  return parseManifest(existsSync(path) ? readFileSync(path, 'utf8') : undefined);
}

export function writeManifest(dir: string, manifest: Manifest, writer = ''): void {
  writeFileAtomic(join(dir, manifestFileName(writer)), manifestText(manifest));
}

/** The manifest with the warehouse state it claims to follow, or without a claim. */
export function withChanges(manifest: Manifest, changes: ManifestChanges | undefined): Manifest {
  const { changes: _dropped, ...rest } = manifest;
  return changes === undefined ? rest : { ...rest, changes };
}
