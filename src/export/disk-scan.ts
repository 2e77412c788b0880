import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { dataFileName, isDataFileName } from './tables.js';
import { tempPrefix } from './atomic-file.js';
import { isStaleTemp } from './stale-temps.js';
import { parsePartitionKey } from './fingerprint.js';
import type { StoredFile } from './store.js';

/** What a table's folder holds now. */
export interface TableDirState {
  /** Our data files, by path below the table folder. */
  readonly files: ReadonlyMap<string, StoredFile>;
  /** `*.parquet` files that are not ours (another tool, an older layout): a glob would mix them in. */
  readonly strays: readonly string[];
  /** Temp files of an export that is gone (killed, or failed): see isStaleTemp. */
  readonly temps: readonly string[];
}

export const TEMP_PREFIX = tempPrefix(dataFileName());

/**
 * A local file's identity: its size, and a version that changes whenever the file is replaced
 * or written (inode and mtime). An object store gives the size and ETag instead.
 */
export function identityOf(path: string): StoredFile {
  const stat = statSync(path);
  return { bytes: stat.size, version: `${stat.ino}:${stat.mtimeMs}` };
}

export function scanTableDir(tableDir: string, partitioned: boolean): TableDirState {
  const files = new Map<string, StoredFile>();
  const strays: string[] = [];
  const temps: string[] = [];
  if (!existsSync(tableDir)) return { files, strays, temps };
  const ours = (key: string) => (partitioned ? parsePartitionKey(key) !== undefined : isDataFileName(key));
  for (const entry of readdirSync(tableDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const key = relative(tableDir, path).split(sep).join('/');
    if (entry.name.startsWith(TEMP_PREFIX)) {
      if (isStaleTemp(entry.name, TEMP_PREFIX)) temps.push(path);
    } else if (ours(key)) files.set(key, identityOf(path));
    else if (entry.name.endsWith('.parquet')) strays.push(path);
  }
  return { files, strays, temps };
}
