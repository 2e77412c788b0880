import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Flushes a file's data (or a directory's entries) to disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some filesystems refuse fsync on a directory; the rename is still atomic there.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL' && (error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `target` with the complete `temp` file: fsync the data, rename over the target (a
 * reader opens either the old file or the new one, never half of one), fsync the directory so
 * the rename survives a power loss.
 */
export function publishFile(temp: string, target: string): void {
  fsyncPath(temp);
  renameSync(temp, target);
  fsyncPath(dirname(target));
}

/** Writes `text` to `path` atomically, through a hidden temp file beside it. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  publishFile(temp, path);
}
