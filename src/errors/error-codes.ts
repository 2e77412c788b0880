import { ExitCode } from './exit-code.js';

/** What happens next when an error with a given code is raised. */
export interface ErrorRule {
  /** Another attempt of the same request may succeed: the API client's retry loop tries again. */
  readonly transient: boolean;
  /** A later run may succeed with nothing changed (API errors report it as `details.retriable`). */
  readonly retriable: boolean;
  /** Every other slice of the run is pointless: the run stops instead of failing slice by slice. */
  readonly fatalForRun: boolean;
  /** The CLI's exit status when the error ends the command. */
  readonly exitCode: ExitCode;
}

const failed: ErrorRule = { transient: false, retriable: false, fatalForRun: false, exitCode: ExitCode.failed };
const usage: ErrorRule = { ...failed, exitCode: ExitCode.usage };
/** One attempt failed in a way the next attempt may not (busy API, flaky network, torn body). */
const transient: ErrorRule = { ...failed, transient: true, retriable: true };
/** Retried enough within this run; a later run may succeed. */
const later: ErrorRule = { ...failed, retriable: true };
/** The warehouse cannot be written: every slice's commit would fail the same way. */
const warehouse: ErrorRule = { ...failed, fatalForRun: true };

/**
 * Every code venue-etl raises, and the one place that says what each means for the retry loop,
 * the run and the exit status. Hostile answers (too large, mis-encoded, redirected, looping or
 * foreign links, contradictory values) fail their slice only: they come from one request and
 * say nothing about the others.
 */
export const ERROR_RULES = {
  // The token is refused: each further request would be refused too.
  VENUE_API_AUTH: { ...failed, fatalForRun: true },
  VENUE_API_NOT_FOUND: failed,
  VENUE_API_BAD_REQUEST: failed,
  VENUE_API_HTTP: failed,
  // A 2xx answer that is not JSON (an HTML page from a captive portal or a proxy): asking again
  // gets the same page, so it is not retried; the access check meeting it stops the run.
  VENUE_API_CONTENT_TYPE: failed,
  VENUE_API_REDIRECT: failed,
  VENUE_API_RESPONSE_TOO_LARGE: failed,
  VENUE_API_CONTENT_ENCODING: failed,
  VENUE_API_ERROR_DOCUMENT: failed,
  VENUE_API_SCHEMA: failed,
  VENUE_API_FOREIGN_LINK: failed,
  VENUE_API_PAGINATION_LOOP: failed,
  VENUE_API_PAGINATION_LINK: failed,
  VENUE_API_PAGINATION_DUPLICATE: failed,
  VENUE_API_TOO_MANY_PAGES: failed,
  VENUE_API_ABORTED: failed,
  // The API asks to wait longer than allowed: every other request would be asked the same.
  VENUE_API_RETRY_AFTER_TOO_LONG: { ...later, fatalForRun: true },
  VENUE_API_RETRIES_EXHAUSTED: later,
  VENUE_API_THROTTLED: transient,
  VENUE_API_SERVER_ERROR: transient,
  VENUE_API_NETWORK: transient,
  VENUE_API_TIMEOUT: transient,
  VENUE_API_BAD_BODY: transient,
  // Well-formed answers that cannot be true: the same request would most likely get the same answer.
  VENUE_API_INCOMPLETE_ANSWER: failed,
  VENUE_API_WRONG_SCOPE: failed,
  VENUE_API_CONTRADICTORY_VALUES: failed,
  VENUE_API_BAD_VALUE: failed,
  /** Daily points where the hours of one day were asked for (or the reverse), or an hour outside the day asked for. */
  VENUE_API_WRONG_GRAIN: failed,

  VENUE_ETL_USAGE: usage,
  VENUE_ETL_CONFIG: usage,
  VENUE_ETL_CONFIG_MISSING: usage,
  VENUE_ETL_UNKNOWN_STREAM: usage,
  /** `--venues` named no known venue, or a prefix or name that fits several (the message lists them). */
  VENUE_ETL_UNKNOWN_VENUE: usage,
  VENUE_ETL_AMBIGUOUS_VENUE: usage,
  VENUE_ETL_TEST_NOW: usage,
  VENUE_ETL_INTERNAL: failed,
  VENUE_DASHBOARD_REPORT_SHAPE: failed,

  VENUE_WAREHOUSE_LOCKED: warehouse,
  VENUE_WAREHOUSE_MISSING: warehouse,
  VENUE_WAREHOUSE_TOO_NEW: warehouse,
  VENUE_WAREHOUSE_OPEN: warehouse,
  VENUE_WAREHOUSE_MIGRATION: warehouse,
  VENUE_WAREHOUSE_INVALID_BATCH: warehouse,
  VENUE_WAREHOUSE_WRITE: warehouse,
  VENUE_WAREHOUSE_CLOSED: warehouse,
  VENUE_WAREHOUSE_READ_ONLY: warehouse,
  // The file cannot be trusted or written any more (src/warehouse/warehouse-failure.ts): a block
  // whose checksum does not match, a full disk, DuckDB closing the database after a fatal error.
  // The process writes nothing more to it; the run stops at the first one.
  VENUE_WAREHOUSE_CORRUPT: warehouse,
  VENUE_WAREHOUSE_DISK_FULL: warehouse,
  VENUE_WAREHOUSE_FATAL: warehouse,

  VENUE_EXPORT_BUSY: failed,
  VENUE_EXPORT_ABORTED: failed,
  VENUE_EXPORT_DISK_FULL: failed,
  VENUE_EXPORT_FOLDER_GONE: failed,
  VENUE_EXPORT_NOT_A_FOLDER: usage,
  // Another warehouse exports as this writer: a config to fix (a writer name of its own), or --take-over.
  VENUE_EXPORT_WRITER_TAKEN: usage,
  VENUE_PARQUET_MISSING: failed,
  // sql/report/dashboard --parquet on an s3:// lake without DuckDB's httpfs extension: fixed by
  // installing it (or querying a local copy), not by running again.
  VENUE_LAKE_HTTPFS_UNAVAILABLE: usage,
  VENUE_SQL_FAILED: failed,
  VENUE_SQL_READ_ONLY: failed,
  // A read stopped by SIGINT/SIGTERM: the shell's status for an interrupted command.
  VENUE_SQL_INTERRUPTED: { ...failed, exitCode: ExitCode.interrupted },
  // A read past query.timeoutSeconds / --timeout, or past query.memoryLimit (docs/lake.md, "Read limits").
  VENUE_SQL_TIMEOUT: failed,
  VENUE_SQL_OUT_OF_MEMORY: failed,

  // The object store of an s3:// export target (src/lake). Unreachable or busy: a later run may
  // get through (the SDK has already retried). Refused, absent or misnamed: every other object
  // of the run would fail the same way, so the run stops.
  VENUE_LAKE_TARGET: usage,
  VENUE_LAKE_UNREACHABLE: { ...later, fatalForRun: true },
  VENUE_LAKE_SERVER: later,
  VENUE_LAKE_ACCESS_DENIED: { ...failed, fatalForRun: true },
  VENUE_LAKE_CREDENTIALS: { ...failed, fatalForRun: true },
  VENUE_LAKE_NO_SUCH_BUCKET: { ...failed, fatalForRun: true },
  VENUE_LAKE_ABORTED: failed,
  VENUE_LAKE_FILE: failed,
  VENUE_LAKE_REQUEST: failed,

  VENUE_RECEIVER_CONFIG: failed,
  VENUE_RECEIVER_LISTEN: failed,
  VENUE_RECEIVER_JOURNAL: failed,
  VENUE_RECEIVER_JOURNAL_LOCKED: failed,
  VENUE_RECEIVER_JOURNAL_FULL: failed,
  VENUE_RECEIVER_CLOSED: failed,
  VENUE_SERVE_RUNNING: failed,

  VENUE_SIM_OPTIONS: usage,
  VENUE_SIM_FAULTS: usage,
  VENUE_SIM_REVISE: usage,
} satisfies Record<string, ErrorRule>;

export type ErrorCode = keyof typeof ERROR_RULES;

/** An error of anything else (a bug, a library's own error) fails what it touched, nothing more. */
const UNKNOWN: ErrorRule = failed;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_RULES, code);
}

/** The rule for an error (or a code): its `code` looked up in the table. */
export function ruleOf(error: unknown): ErrorRule {
  const code = typeof error === 'string' ? error : codeOf(error);
  return isErrorCode(code) ? ERROR_RULES[code] : UNKNOWN;
}

/** The `code` property of any thrown value (ours, Node's `ENOSPC`, undici's `UND_ERR_*`). */
export function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
