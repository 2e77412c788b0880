import { dirname, resolve } from 'node:path';
import { codeOf, EtlError, isEtlError, type ErrorCode } from '../errors/index.js';

/**
 * Failures after which a warehouse file cannot be trusted or written any more, whatever is
 * tried next in the same process:
 *
 * - `corrupt`: the file is not what DuckDB wrote. DuckDB checksums every 256 KiB block and every
 *   WAL entry; one flipped byte anywhere in a used block fails each read of that block.
 * - `disk-full`: the disk holding the file (or its WAL) has no room left.
 * - `fatal`: DuckDB "invalidated" the database after a fatal error (a checkpoint that could not
 *   write, or ran out of memory) and refuses every statement until the process opens it again,
 *   or the file itself answered with an I/O error.
 *
 * DuckDB's errors carry nothing but their text, so the kinds are read from it. The patterns are
 * what DuckDB 1.5 says, found by flipping one byte of a real warehouse at 170 offsets, truncating
 * it, corrupting its WAL and filling the disk under it (docs/warehouse.md, "What DuckDB says").
 */
export type WarehouseFailureKind = 'corrupt' | 'disk-full' | 'fatal';

/**
 * A block or WAL entry whose checksum does not match. A file without DuckDB's magic bytes ("is
 * not a valid DuckDB database file") is not counted: warehouse.path naming another file is far
 * more likely than a flip in those 4 bytes, and "move the file aside" would be the wrong advice.
 */
const CORRUPT = /Corrupt database file|Corrupt WAL file/i;
/** A file shorter than its own metadata says: a truncated warehouse (or WAL) is corrupt. */
const SHORT_READ = /Could not read enough bytes from file "([^"]+)"/i;
const DISK_FULL = /No space left on device|Disk quota exceeded/i;
const FATAL = /FATAL Error|database has been invalidated|\bIO Error:/i;

const FAILURE_CODES: ReadonlySet<ErrorCode> = new Set(['VENUE_WAREHOUSE_CORRUPT', 'VENUE_WAREHOUSE_DISK_FULL', 'VENUE_WAREHOUSE_FATAL']);

/** Whether an error is one of the failures above, already made an EtlError. */
export function isWarehouseFailure(error: unknown): error is EtlError {
  return isEtlError(error) && FAILURE_CODES.has(error.code);
}

/**
 * The kind of failure an error of the warehouse file `path` is, if any. `path` (as configured
 * or absolute) tells a truncated warehouse from another file read short.
 */
export function failureKind(error: unknown, path?: string): WarehouseFailureKind | undefined {
  const messages = messagesOf(error);
  if (messages.some((text) => CORRUPT.test(text) || shortReadOf(text, path))) return 'corrupt';
  if (chainOf(error).some((e) => codeOf(e) === 'ENOSPC' || codeOf(e) === 'EDQUOT') || messages.some((text) => DISK_FULL.test(text))) return 'disk-full';
  if (messages.some((text) => FATAL.test(text))) return 'fatal';
  return undefined;
}

/**
 * Only what proves the file itself corrupt: for readers that share their connection with other
 * sources (Parquet files, where an I/O error is not the warehouse's).
 */
export function isCorruption(error: unknown, path?: string): boolean {
  return failureKind(error, path) === 'corrupt';
}

/** The coded error for a failure of the warehouse at `path`, or undefined when `error` is none. */
export function warehouseFailure(path: string, error: unknown): EtlError | undefined {
  if (isWarehouseFailure(error)) return error;
  const kind = failureKind(error, path);
  return kind === undefined ? undefined : failureError(kind, path, error);
}

export function failureError(kind: WarehouseFailureKind, path: string, cause: unknown): EtlError {
  return FAILURE[kind](path, cause);
}

/** `path` undefined: a reader that does not know it (its hint names warehouse.path instead). */
export function warehouseCorrupt(path: string | undefined, cause: unknown): EtlError {
  const file = path === undefined ? 'file (warehouse.path)' : path;
  return new EtlError('VENUE_WAREHOUSE_CORRUPT', `the warehouse ${file} is corrupt: ${duckdbReason(cause)}`, {
    hint:
      'venue-etl writes nothing more to it. Move the file (and its .wal) aside, then restore the latest backup, or rebuild it: ' +
      '`venue-etl sync` loads from sync.startDate again and `venue-etl backfill --from DATE --to DATE` reaches further back ' +
      '(docs/warehouse.md, "A corrupt warehouse")',
    cause,
    details: { ...(path === undefined ? {} : { path }), kind: 'corrupt' },
  });
}

function warehouseDiskFull(path: string, cause: unknown): EtlError {
  const dir = dirname(resolve(path));
  return new EtlError('VENUE_WAREHOUSE_DISK_FULL', `the disk holding the warehouse ${path} is full: ${duckdbReason(cause)}`, {
    hint:
      `free space there (df -h ${dir}) or move warehouse.path to a larger disk, then run again: what was committed is kept ` +
      '(DuckDB replays its WAL when the file is next opened) and slices not committed run again (their cursors did not move)',
    cause,
    details: { path, kind: 'disk-full' },
  });
}

function warehouseFatal(path: string, cause: unknown): EtlError {
  return new EtlError('VENUE_WAREHOUSE_FATAL', `DuckDB stopped writing the warehouse ${path} after a fatal error: ${duckdbReason(cause)}`, {
    hint:
      'this process writes nothing more to it; what was committed is kept (DuckDB replays its WAL when the file is next opened). ' +
      'Fix what the error names (the disk, its permissions, memory: warehouse.memoryLimit) and run again; if it repeats, see docs/warehouse.md, "When the warehouse fails"',
    cause,
    details: { path, kind: 'fatal' },
  });
}

const FAILURE: Record<WarehouseFailureKind, (path: string, cause: unknown) => EtlError> = {
  corrupt: warehouseCorrupt,
  'disk-full': warehouseDiskFull,
  fatal: warehouseFatal,
};

function shortReadOf(text: string, path: string | undefined): boolean {
  const file = SHORT_READ.exec(text)?.[1];
  if (file === undefined || path === undefined) return false;
  const warehouse = resolve(path);
  return resolve(file) === warehouse || resolve(file) === `${warehouse}.wal`;
}

function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
    if (typeof current !== 'object') break;
  }
  return chain;
}

function messagesOf(error: unknown): string[] {
  return chainOf(error).map((e) => (e instanceof Error ? e.message : String(e)));
}

/**
 * DuckDB's own words, on one line: the innermost message (ours wrap it), without the type
 * prefix, and for an invalidated database the original error it names.
 */
function duckdbReason(error: unknown): string {
  const messages = messagesOf(error);
  const innermost = messages[messages.length - 1] ?? '';
  const original = /Original error: "([\s\S]*)"\s*$/.exec(innermost)?.[1];
  const text = (original ?? innermost).replace(/^(?:FATAL|IO|TransactionContext) Error: /, '').replace(/\s+/g, ' ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
