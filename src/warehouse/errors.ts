import { EtlError } from '../errors/index.js';
import { processCommand } from '../infra/process-command.js';
import { failureError, failureKind } from './warehouse-failure.js';

/** `Conflicting lock is held in /usr/bin/node (PID 1234)` → 1234. */
function lockHolderPid(message: string): number | undefined {
  const match = /\(PID (\d+)\)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

export function isLockError(error: unknown): boolean {
  return error instanceof Error && /Could not set lock on file/i.test(error.message);
}

/**
 * DuckDB allows one writing process per file; a reader cannot open while a writer holds it,
 * nor a writer while a reader does. The message names the holder's command (`venue-etl sql`,
 * `venue-etl serve`…) from its PID, so that the user knows what to wait for or stop.
 */
export function warehouseLocked(path: string, cause: unknown): EtlError {
  const pid = lockHolderPid(cause instanceof Error ? cause.message : String(cause));
  const command = pid === undefined ? undefined : processCommand(pid);
  const holder = pid === undefined ? 'another venue-etl process' : command === undefined ? `another process (PID ${pid})` : `\`${command}\` (PID ${pid})`;
  return new EtlError('VENUE_WAREHOUSE_LOCKED', `the warehouse ${path} is in use by ${holder}`, {
    hint:
      'wait for that command to finish (a query stops at query.timeoutSeconds), or stop `venue-etl serve` while you run this command; ' +
      'to query while it runs, use `venue-etl sql --parquet` on the exported files',
    cause,
    details: { path, ...(pid === undefined ? {} : { pid }), ...(command === undefined ? {} : { command }) },
  });
}

export function warehouseMissing(path: string): EtlError {
  return new EtlError('VENUE_WAREHOUSE_MISSING', `the warehouse ${path} does not exist`, {
    hint: 'run `venue-etl sync` (or `venue-etl demo`) first, or check warehouse.path in the config (relative paths in the config are resolved against the folder of the config file)',
    details: { path },
  });
}

export function warehouseTooNew(path: string, fileVersion: number, knownVersion: number): EtlError {
  return new EtlError('VENUE_WAREHOUSE_TOO_NEW', `the warehouse ${path} has schema version ${fileVersion}, newer than this venue-etl knows (${knownVersion})`, {
    hint: 'a newer venue-etl wrote this file: upgrade venue-etl, or point warehouse.path at another file',
    details: { path, fileVersion, knownVersion },
  });
}

/**
 * Opening failed. A corrupt file or a full disk (DuckDB replays the WAL and checkpoints as it
 * opens) is said as such; any other I/O error here is about reaching the file (permissions, a
 * folder in the way), not a database DuckDB gave up on.
 */
export function warehouseOpenFailed(path: string, cause: unknown): EtlError {
  const kind = failureKind(cause, path);
  if (kind === 'corrupt' || kind === 'disk-full') return failureError(kind, path, cause);
  const reason = cause instanceof Error ? cause.message : String(cause);
  const notDuckDb = /is not a valid DuckDB database file/i.test(reason);
  return new EtlError('VENUE_WAREHOUSE_OPEN', `could not open the warehouse ${path}: ${reason}`, {
    hint: notDuckDb
      ? 'check warehouse.path: it names a file that is not a DuckDB database (another file, or a warehouse whose first bytes were damaged: see docs/warehouse.md, "A corrupt warehouse")'
      : 'check that warehouse.path points at a DuckDB file this user can read and write',
    cause,
    details: { path },
  });
}

export function migrationFailed(path: string, file: string, cause: unknown): EtlError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new EtlError('VENUE_WAREHOUSE_MIGRATION', `migration ${file} failed on ${path}: ${reason}`, {
    hint: 'the file was left as it was before this migration; report the message above',
    cause,
    details: { path, file },
  });
}

/** A batch handed to the loader that cannot be stored as is (a bug upstream of the warehouse). */
export function invalidBatch(message: string, details: Readonly<Record<string, unknown>> = {}): EtlError {
  return new EtlError('VENUE_WAREHOUSE_INVALID_BATCH', message, {
    hint: 'nothing of this group of slices was written; the normalized rows are inconsistent',
    details,
  });
}

export function writeFailed(what: string, cause: unknown): EtlError {
  if (cause instanceof EtlError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new EtlError('VENUE_WAREHOUSE_WRITE', `${what} failed: ${reason}`, {
    hint: 'the transaction was rolled back; the warehouse holds what it held before',
    cause,
  });
}
