import { openSync, closeSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EtlError, ExitCode } from '../errors/index.js';

const LOCK_FILE = '.venue-etl-export.lock';

/** Whether a process with this pid exists (a temp file or lock of a dead one is stale). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One export per directory at a time: two would rename over each other's files and race on
 * the manifest. A lock left by a killed export (its pid is gone) is taken over; whatever that
 * export left half-done is repaired by this one.
 */
export function acquireExportLock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeFileSync(fd, `${process.pid}\n`);
      } catch (error) {
        // A full disk: no lock without a pid in it (the next export would take an empty one over anyway).
        closeSync(fd);
        unlinkSync(path);
        throw error;
      }
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new EtlError('VENUE_EXPORT_BUSY', `another export (PID ${holder}) is writing ${dir}`, {
          hint: 'wait for it to finish; exports of the same directory cannot run at the same time',
          exitCode: ExitCode.failed,
          details: { dir, pid: holder },
        });
      }
      unlinkSync(path);
    }
  }
  throw new EtlError('VENUE_EXPORT_BUSY', `could not lock ${dir} for the export`, { exitCode: ExitCode.failed });
}
