import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EtlError } from '../errors/index.js';
import { acquirePidLock, type PidLock } from '../infra/pid-lock.js';

/**
 * One `serve` per warehouse: a PID file beside the warehouse. A file left by a process that no
 * longer runs (killed with -9), or by a previous life of this one (a container restarted as
 * PID 1), is taken over.
 */
export function acquireServeLock(warehousePath: string): PidLock {
  const path = `${warehousePath}.serve.pid`;
  mkdirSync(dirname(path), { recursive: true });
  return acquirePidLock(
    path,
    (pid) =>
      new EtlError('VENUE_SERVE_RUNNING', `venue-etl serve is already running for ${warehousePath} (PID ${pid})`, {
        hint: `stop it first (kill ${pid}), or point this one at another warehouse.path`,
        details: { pid },
      }),
  );
}
