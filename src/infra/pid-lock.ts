import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * One holder at a time for a resource (an export folder, a warehouse served, a journal folder):
 * a file created exclusively that holds the holder's pid. The export, `serve` and the receiver's
 * journal all lock through this module, so they agree on when a lock is stale:
 * - held by this process already (another part of it took it): refused, naming this pid;
 * - holding another pid that runs: refused, naming that pid;
 * - holding this process's own pid while this process never took it: a previous life of this
 *   process (containers restart their entry point as PID 1 again), so it is taken over;
 * - holding a pid that no longer runs (kill -9, power loss), or no pid at all: taken over.
 * Taking over is not atomic: two processes starting in the same millisecond over the same stale
 * file can both win. The locks guard against a second run started by hand or by a scheduler,
 * seconds or hours apart, not against that.
 */
export interface PidLock {
  readonly path: string;
  /** Removes the file if it still holds this pid; safe to call twice. */
  release(): void;
}

/** Builds the error for a lock held by `holder` (this process's pid when it holds it itself). */
export type LockRefusal = (holder: number) => Error;

const heldInThisProcess = new Set<string>();

export function acquirePidLock(path: string, refuse: LockRefusal): PidLock {
  const key = resolve(path);
  if (heldInThisProcess.has(key)) throw refuse(process.pid);
  // Two tries: the first may find a stale file and remove it; a second failure means another
  // process took the lock in between, which is then the live holder.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createExclusive(path)) {
      heldInThisProcess.add(key);
      return lockAt(path, key);
    }
    const holder = readHolder(path);
    if (holder !== undefined && holder !== process.pid && processAlive(holder)) throw refuse(holder);
    removeIfPresent(path);
  }
  throw refuse(readHolder(path) ?? 0);
}

/** Whether a process with this pid exists (EPERM: it runs, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/** The pid a lock file holds; undefined when it is missing, empty or not a pid. */
function readHolder(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function createExclusive(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } catch (error) {
    // A full disk: no lock without a pid in it (the next one would take an empty file over anyway).
    closeSync(fd);
    removeIfPresent(path);
    throw error;
  }
  closeSync(fd);
  return true;
}

function lockAt(path: string, key: string): PidLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      heldInThisProcess.delete(key);
      // A lock taken over by another process after this one was presumed dead stays theirs.
      try {
        if (readHolder(path) === process.pid) removeIfPresent(path);
      } catch {
        // The folder is gone or unreadable: nothing left to release.
      }
    },
  };
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
