import { join } from 'node:path';
import { EtlError } from '../errors/index.js';
import { acquirePidLock } from '../infra/pid-lock.js';

const LOCK_FILE = '.venue-etl-export.lock';

/**
 * One export per directory at a time: two would rename over each other's files and race on
 * the manifest. A lock left by a killed export (its pid is gone) is taken over; whatever that
 * export left half-done is repaired by this one.
 */
export function acquireExportLock(dir: string): () => void {
  const lock = acquirePidLock(
    join(dir, LOCK_FILE),
    (holder) =>
      new EtlError('VENUE_EXPORT_BUSY', `another export (PID ${holder}) is writing ${dir}`, {
        hint: 'wait for it to finish; exports of the same directory cannot run at the same time',
        details: { dir, pid: holder },
      }),
  );
  return () => lock.release();
}
