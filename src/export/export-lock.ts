import { join } from 'node:path';
import { EtlError } from '../errors/index.js';
import { acquirePidLock } from '../infra/pid-lock.js';

/** One lock per writer: writers of one folder own different files and manifests, so they run side by side. */
function lockFile(writer: string): string {
  return writer === '' ? '.venue-etl-export.lock' : `.venue-etl-export-${writer}.lock`;
}

/**
 * One export per directory and writer at a time: two would rename over each other's files and
 * race on the manifest. A lock left by a killed export (its pid is gone) is taken over; whatever
 * that export left half-done is repaired by this one.
 */
export function acquireExportLock(dir: string, writer: string): () => void {
  const lock = acquirePidLock(
    join(dir, lockFile(writer)),
    (holder) =>
      new EtlError('VENUE_EXPORT_BUSY', `another export (PID ${holder}) is writing ${dir}`, {
        hint: 'wait for it to finish; exports of the same directory cannot run at the same time',
        details: { dir, pid: holder },
      }),
  );
  return () => lock.release();
}
