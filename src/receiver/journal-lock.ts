import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { journalLocked } from './receiver-errors.js';

/**
 * One receiver writes a journal folder. The merge deletes sealed segments (all but the newest),
 * so a second writer's segment could be deleted under it; the lock file prevents that setup.
 * A lock left by a process that died (kill -9) is taken over: its pid no longer runs.
 */
const LOCK_FILE = 'writer.lock';
const heldInThisProcess = new Set<string>();

export interface JournalLock {
  release(): Promise<void>;
}

export async function lockJournal(dir: string): Promise<JournalLock> {
  const key = resolve(dir);
  if (heldInThisProcess.has(key)) throw journalLocked(dir, process.pid);
  const path = join(dir, LOCK_FILE);
  if (!(await createExclusive(path))) {
    const holder = await readHolder(path);
    // Our own pid in the file is a previous life of this process (containers reuse pid 1).
    if (holder !== undefined && holder !== process.pid && isRunning(holder)) throw journalLocked(dir, holder);
    const temp = `${path}.${process.pid}`;
    await writeFile(temp, `${process.pid}\n`);
    await rename(temp, path);
  }
  heldInThisProcess.add(key);
  return {
    async release() {
      heldInThisProcess.delete(key);
      if ((await readHolder(path)) === process.pid) await unlink(path).catch(() => undefined);
    },
  };
}

async function createExclusive(path: string): Promise<boolean> {
  try {
    await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
