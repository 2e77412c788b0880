import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../infra/pid-lock.js';

/**
 * Temp files are named `<prefix><pid>` by the process that writes them. One is stale when that
 * process is gone, or is this one: exports of a folder hold its lock, so an export of this
 * process that left a temp has finished. A temp of another live process is left alone: taking
 * over a lock is not atomic, and deleting a running export's temp would fail its rename.
 */
export function isStaleTemp(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const pid = Number(name.slice(prefix.length));
  if (!Number.isSafeInteger(pid) || pid <= 0) return true; // not written by a pid we could wait for
  return pid === process.pid || !processAlive(pid);
}

/** The stale temp files with `prefix` directly in `dir` (absolute paths). */
export function staleTempsIn(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && isStaleTemp(entry.name, prefix))
    .map((entry) => join(dir, entry.name));
}
