import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { codeOf } from '../errors/index.js';

const ignorable = (error: unknown): boolean => {
  // Some filesystems refuse fsync on a directory; the rename is still atomic there.
  const code = codeOf(error);
  return code === 'EINVAL' || code === 'EISDIR' || code === 'EPERM';
};

/** Flushes a file's data (or a directory's entries) to disk. */
function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    if (!ignorable(error)) throw error;
  } finally {
    closeSync(fd);
  }
}

async function fsyncPathAsync(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } catch (error) {
    if (!ignorable(error)) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` with the complete `temp` file: fsync the data, rename over the target (a
 * reader opens either the old file or the new one, never half of one), fsync the directory so
 * the rename survives a power loss.
 */
function publishFile(temp: string, target: string): void {
  fsyncPath(temp);
  renameSync(temp, target);
  fsyncPath(dirname(target));
}

/** Same as publishFile, off the main thread: the export overlaps these waits with the next COPY. */
export async function publishFileAsync(temp: string, target: string): Promise<void> {
  await fsyncPathAsync(temp);
  await rename(temp, target);
  await fsyncPathAsync(dirname(target));
}

/** How the temp files of `name` start: `.<name>.tmp-`, then the writer's pid (see stale-temps.ts). */
export function tempPrefix(name: string): string {
  return `.${name}.tmp-`;
}

/** Deletes a temp file that will not be published; gone already is fine. */
export function discardTemp(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing to free: it was never created, or is gone.
  }
}

/**
 * Writes `text` to `path` atomically, through a hidden temp file beside it. writeFileSync writes
 * every byte or throws (a bare writeSync may write part of the text on a full disk and return);
 * a temp that fails is deleted, so a full disk is not left fuller.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `${tempPrefix(basename(path))}${process.pid}`);
  try {
    const fd = openSync(temp, 'w');
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    publishFile(temp, path);
  } catch (error) {
    discardTemp(temp);
    throw error;
  }
}
