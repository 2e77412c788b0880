import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { EtlError } from '../errors/index.js';

/** The errno code of a Node fs error (`ENOSPC`, `ENOENT`, …), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function errnoPath(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('path' in error)) return undefined;
  return typeof error.path === 'string' ? error.path : undefined;
}

/** DuckDB reports file errors as text only: `IO Error: Could not write file "<path>": No space left on device`. */
function duckdbPath(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /file "([^"]+)"/.exec(error.message)?.[1];
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `…/month=2024-12/.data.parquet.tmp-4242` → `…/month=2024-12/data.parquet`: the file a person knows. */
function publishedName(path: string | undefined): string | undefined {
  return path?.replace(/([\\/])\.([^\\/]+)\.tmp-\d+$/, '$1$2');
}

function exportDiskFull(dir: string, cause: unknown): EtlError {
  const file = publishedName(errnoPath(cause) ?? duckdbPath(cause));
  return new EtlError('VENUE_EXPORT_DISK_FULL', `the disk holding the Parquet folder ${dir} is full${file ? ` (writing ${file})` : ''}`, {
    hint:
      `free space there (df -h ${dir}) or set parquet.dir to a folder on a larger disk, then run \`venue-etl export\` again: ` +
      'every partition still holds its previous or its new complete file, and the next export writes only what is missing',
    cause,
    details: { dir, ...(file ? { file } : {}) },
  });
}

export function exportFolderGone(dir: string, cause: unknown): EtlError {
  return new EtlError('VENUE_EXPORT_FOLDER_GONE', `the Parquet folder ${dir} was deleted or replaced while the export was writing it`, {
    hint:
      'something removed it during the export (a cleanup job, a person, another tool): stop that, then run `venue-etl export` again ' +
      '(it writes every partition that is missing)',
    cause,
    details: { dir },
  });
}

export function exportNotAFolder(path: string, cause?: unknown): EtlError {
  return new EtlError('VENUE_EXPORT_NOT_A_FOLDER', `${path} is a file, not a folder: the Parquet export needs a folder there`, {
    hint: 'set parquet.dir in the config to a folder (it is created when missing), or move that file away',
    ...(cause === undefined ? {} : { cause }),
    details: { path },
  });
}

/** What identifies the export's root folder: a folder deleted and created again is another one. */
export interface FolderIdentity {
  readonly dev: number;
  readonly ino: number;
}

export function folderIdentity(dir: string): FolderIdentity | undefined {
  try {
    const stat = statSync(dir);
    return stat.isDirectory() ? { dev: stat.dev, ino: stat.ino } : undefined;
  } catch {
    return undefined;
  }
}

export function sameFolder(dir: string, expected: FolderIdentity): boolean {
  const now = folderIdentity(dir);
  return now !== undefined && now.dev === expected.dev && now.ino === expected.ino;
}

/**
 * Turns what the file system (or DuckDB writing a file) answered into an error that says what
 * happened to the Parquet folder `dir` and how to fix it. Errors that are not about the
 * environment pass through unchanged.
 */
export function exportEnvironmentError(error: unknown, dir: string, root: FolderIdentity | undefined): unknown {
  if (error instanceof EtlError) return error;
  const code = errnoCode(error);
  const text = message(error);
  if (code === 'ENOSPC' || code === 'EDQUOT' || /No space left on device|Disk quota exceeded/i.test(text)) return exportDiskFull(dir, error);
  if (root !== undefined && !sameFolder(dir, root)) return exportFolderGone(dir, error);
  if (code === 'ENOENT' || /No such file or directory/i.test(text)) return exportFolderGone(dir, error);
  if (code === 'ENOTDIR' || code === 'EEXIST' || /Not a directory/i.test(text)) {
    const path = errnoPath(error) ?? duckdbPath(error) ?? dir;
    return exportNotAFolder(firstFileOnPath(path) ?? path, error);
  }
  return error;
}

/** The path itself or the nearest of its parents that exists and is not a folder. */
function firstFileOnPath(path: string): string | undefined {
  for (let current = path; ; current = dirname(current)) {
    if (existsSync(current) && !statSync(current).isDirectory()) return current;
    if (dirname(current) === current) return undefined;
  }
}
