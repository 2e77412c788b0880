import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DATA_FILE } from './tables.js';
import { tempPrefix } from './atomic-file.js';
import { isStaleTemp } from './stale-temps.js';

export interface FileIdentity {
  readonly bytes: number;
  readonly ino: number;
  readonly mtimeMs: number;
}

/** What a table's folder holds now. */
export interface TableDirState {
  /** Our data files, by path below the table folder. */
  readonly files: ReadonlyMap<string, FileIdentity>;
  /** `*.parquet` files that are not ours (another tool, an older layout): a glob would mix them in. */
  readonly strays: readonly string[];
  /** Temp files of an export that is gone (killed, or failed): see isStaleTemp. */
  readonly temps: readonly string[];
}

export const TEMP_PREFIX = tempPrefix(DATA_FILE);

export function identityOf(path: string): FileIdentity {
  const stat = statSync(path);
  return { bytes: stat.size, ino: stat.ino, mtimeMs: stat.mtimeMs };
}

export function scanTableDir(tableDir: string, partitioned: boolean): TableDirState {
  const files = new Map<string, FileIdentity>();
  const strays: string[] = [];
  const temps: string[] = [];
  if (!existsSync(tableDir)) return { files, strays, temps };
  const ours = partitioned ? /^stream=[^/]+\/month=\d{4}-\d{2}\/data\.parquet$/ : /^data\.parquet$/;
  for (const entry of readdirSync(tableDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const key = relative(tableDir, path).split(sep).join('/');
    if (entry.name.startsWith(TEMP_PREFIX)) {
      if (isStaleTemp(entry.name, TEMP_PREFIX)) temps.push(path);
    } else if (ours.test(key)) files.set(key, identityOf(path));
    else if (entry.name.endsWith('.parquet')) strays.push(path);
  }
  return { files, strays, temps };
}
