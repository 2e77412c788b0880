import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { dataFileName, isDataFileName } from './tables.js';
import { tempPrefix } from './atomic-file.js';
import { isStaleTemp } from './stale-temps.js';
import { parsePartitionKey } from './fingerprint.js';
import type { StoredFile } from './store.js';

/** What a table's folder holds now. */
export interface TableDirState {
  /** This writer's data files, by path below the table folder (other writers' are left out, and alone). */
  readonly files: ReadonlyMap<string, StoredFile>;
  /** `*.parquet` files that are no writer's data file (another tool, an older layout): a glob would mix them in. */
  readonly strays: readonly string[];
  /** This writer's temp files of an export that is gone (killed, or failed): see isStaleTemp. */
  readonly temps: readonly string[];
}

/** The prefix of a writer's temp data files: each writer clears only its own. */
export function dataTempPrefix(writer: string): string {
  return tempPrefix(dataFileName(writer));
}

/**
 * A local file's identity: its size, and a version that changes whenever the file is replaced
 * or written (inode and mtime). An object store gives the size and ETag instead.
 */
export function identityOf(path: string): StoredFile {
  const stat = statSync(path);
  return { bytes: stat.size, version: `${stat.ino}:${stat.mtimeMs}` };
}

export function scanTableDir(tableDir: string, partitioned: boolean, writer: string): TableDirState {
  const files = new Map<string, StoredFile>();
  const strays: string[] = [];
  const temps: string[] = [];
  if (!existsSync(tableDir)) return { files, strays, temps };
  const fileName = dataFileName(writer);
  const prefix = dataTempPrefix(writer);
  const ours = (key: string) => (partitioned ? parsePartitionKey(key, fileName) !== undefined : key === fileName);
  // Another writer's file where a data file belongs is never a stray: it is never touched.
  const anyWriters = (key: string) => (partitioned ? parsePartitionKey(key) !== undefined : isDataFileName(key));
  for (const entry of readdirSync(tableDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const key = relative(tableDir, path).split(sep).join('/');
    if (entry.name.startsWith(prefix)) {
      if (isStaleTemp(entry.name, prefix)) temps.push(path);
    } else if (ours(key)) files.set(key, identityOf(path));
    else if (entry.name.endsWith('.parquet') && !anyWriters(key)) strays.push(path);
  }
  return { files, strays, temps };
}
