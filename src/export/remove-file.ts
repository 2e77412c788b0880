import { rmdirSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Deletes a file (gone already is fine) and then its folders up to `root` while they are empty. */
export function removeFileAndEmptyFolders(path: string, root: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const top = resolve(root);
  for (let folder = resolve(dirname(path)); folder !== top && folder.startsWith(top); folder = dirname(folder)) {
    try {
      rmdirSync(folder);
    } catch {
      return; // not empty (or already gone): stop climbing
    }
  }
}
