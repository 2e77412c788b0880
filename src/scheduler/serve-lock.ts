import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EtlError } from '../errors/index.js';

/**
 * One `serve` per warehouse: a PID file beside the warehouse, created exclusively. A file left by
 * a process that no longer runs (killed with -9) is taken over.
 */
export function acquireServeLock(warehousePath: string): { release(): void } {
  const path = `${warehousePath}.serve.pid`;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new EtlError('VENUE_SERVE_RUNNING', `venue-etl serve is already running for ${warehousePath} (PID ${pid})`, {
          hint: `stop it first (kill ${pid}), or point this one at another warehouse.path`,
          details: { pid },
        });
      }
      unlinkSync(path);
    }
  }
  throw new EtlError('VENUE_SERVE_LOCK', `could not take the serve lock ${path}`, { hint: 'remove the file if no venue-etl serve is running' });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
