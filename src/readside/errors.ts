import { EtlError } from '../errors/index.js';
import { isCorruption, warehouseCorrupt } from '../warehouse/warehouse-failure.js';

/** DuckDB's own message, without the JavaScript wrapper: what a person can act on. */
export function duckdbMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The Node binding prefixes parser errors with the step that failed.
  return message.replace(/^Failed to extract statements: /, '');
}

/** A query that failed; on a warehouse whose blocks DuckDB finds corrupt, that is what it says. */
export function queryFailed(cause: unknown, hint?: string): EtlError {
  if (isCorruption(cause)) return warehouseCorrupt(undefined, cause);
  return new EtlError('VENUE_SQL_FAILED', duckdbMessage(cause), { cause, hint });
}

const READ_ONLY_HINT = 'the warehouse is written only by sync, backfill and the receiver; query it with SELECT, PIVOT, EXPLAIN, SET, PRAGMA or CALL';

const FILE_HINT =
  'a read command opens no file but its source: the warehouse, or with --parquet the data files of the lake; ' +
  'COPY TO, ATTACH, EXPORT, INSTALL and reading other files are refused — query the tables (views) by name';

/** `Cannot access file "/x/y.csv" - file system …` → /x/y.csv. */
function refusedPath(cause: unknown): string | undefined {
  return /Cannot access (?:file|directory) "([^"]*)"/.exec(duckdbMessage(cause))?.[1];
}

/**
 * DuckDB refused the statement: a write in the READ ONLY transaction (`statement` names its
 * kind), or a file it may not open — which may have been a read of a file outside the source,
 * so the message says which file was refused, not that the statement wrote.
 */
export function writeRefused(statement: string, index: number, count: number, cause?: unknown): EtlError {
  const which = count > 1 ? ` (statement ${index + 1} of ${count})` : '';
  const path = refusedPath(cause);
  if (path !== undefined) {
    return new EtlError('VENUE_SQL_READ_ONLY', `venue-etl sql opens no file but its source: DuckDB refused to open ${path}${which}`, {
      hint: FILE_HINT,
      cause,
      details: { statement, path },
    });
  }
  return new EtlError('VENUE_SQL_READ_ONLY', `venue-etl sql is read-only: ${statement} statements are refused${which}: ${duckdbMessage(cause)}`, {
    hint: READ_ONLY_HINT,
    cause,
    details: { statement },
  });
}

/** A statement DuckDB ran but would not run where no file can be opened (see dry-run.ts). */
export function refusedWithoutFiles(statement: string, index: number, count: number, cause: unknown): EtlError {
  const which = count > 1 ? ` (statement ${index + 1} of ${count})` : '';
  return new EtlError(
    'VENUE_SQL_READ_ONLY',
    `venue-etl sql opens no file but its source: the ${statement} statement${which} needs a file (${duckdbMessage(cause).split('\n')[0]})`,
    { hint: FILE_HINT, cause, details: { statement } },
  );
}

/** DuckDB stopped the query at its memory limit (it may not spill: a read writes no temporary file). */
export function outOfMemory(limit: string, cause: unknown): EtlError {
  return new EtlError('VENUE_SQL_OUT_OF_MEMORY', `the query needs more than query.memoryLimit (${limit}): ${duckdbMessage(cause).split('\n')[0]}`, {
    hint: 'narrow the query (fewer rows or columns, an aggregate, a LIMIT), or raise query.memoryLimit in the config',
    cause,
    details: { memoryLimit: limit },
  });
}

/** A SET of DuckDB's settings after the read command sealed them (lock-down.ts). */
export function isSettingLocked(error: unknown): boolean {
  return /the configuration has been locked/i.test(duckdbMessage(error));
}

export function settingLocked(cause: unknown): EtlError {
  return new EtlError('VENUE_SQL_READ_ONLY', `a read command's DuckDB settings are fixed: ${duckdbMessage(cause).split('\n')[0]}`, {
    hint: 'the memory limit and time limit are query.memoryLimit and query.timeoutSeconds (or --timeout) in the config; SET VARIABLE still works',
    cause,
  });
}

export function isOutOfMemory(error: unknown): boolean {
  return /^Out of Memory Error/i.test(duckdbMessage(error)) || /could not allocate|failed to allocate|max_temp_directory_size/i.test(duckdbMessage(error));
}

export function isInterrupt(error: unknown): boolean {
  return /^INTERRUPT Error/i.test(duckdbMessage(error));
}

/** A COMMIT or ROLLBACK in the text ended the read-only transaction before more statements. */
export function transactionEnded(index: number, count: number): EtlError {
  return new EtlError(
    'VENUE_SQL_READ_ONLY',
    `venue-etl sql is read-only: statement ${index + 1} of ${count} would run after the text ended its read-only transaction`,
    {
      hint: `${READ_ONLY_HINT}; leave out COMMIT, ROLLBACK and BEGIN`,
      details: { statement: index + 1 },
    },
  );
}

export function parquetMissing(dir: string): EtlError {
  return new EtlError('VENUE_PARQUET_MISSING', `no exported Parquet files in ${dir}`, {
    hint: 'run `venue-etl export` first, or check parquet.dir in the config (relative paths in the config are resolved against the folder of the config file)',
    details: { dir },
  });
}

/**
 * DuckDB's refusals: a write in the READ ONLY transaction or on a READ_ONLY file, and any file
 * outside the source (COPY TO, ATTACH, EXPORT, INSTALL) with external access switched off.
 */
export function isReadOnlyRefusal(error: unknown): boolean {
  return /read-only mode|attached in read-only|file system operations are disabled|external access|installing extensions is disabled|loading extensions is disabled|Cannot change .* when enable_external_access is disabled/i.test(
    duckdbMessage(error),
  );
}

/**
 * `--parquet` on an `s3://` lake needs DuckDB's httpfs extension, which is not bundled and is
 * never downloaded at run time (an offline or locked-down machine must not reach out on its
 * own): the hint says how to install it once, or how to query a local copy instead (`aws s3 sync`
 * with the lake's `parquet.s3.endpoint`, when one is set: without it the copy asks AWS).
 */
export function httpfsUnavailable(lake: string, version: string, platform: string, cause: unknown, endpoint?: string): EtlError {
  return new EtlError(
    'VENUE_LAKE_HTTPFS_UNAVAILABLE',
    `cannot read ${lake}: DuckDB's httpfs extension (needed for s3:// lakes) is not installed here (${duckdbMessage(cause).split('\n')[0]})`,
    {
      hint:
        `install it once on a machine with internet access: run \`INSTALL httpfs\` in DuckDB ${version} (the duckdb CLI or any client of that version), ` +
        `or copy httpfs.duckdb_extension into ~/.duckdb/extensions/${version}/${platform}/; ` +
        `or query a local copy: \`aws s3 sync ${lake} DIR${endpoint === undefined ? '' : ` --endpoint-url ${endpoint}`}\`, then set parquet.dir to DIR and run with --parquet again`,
      cause,
      details: { lake, duckdb: version, platform },
    },
  );
}
