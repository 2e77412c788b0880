import { ERROR_RULES, type ErrorCode } from './error-codes.js';
import type { ExitCode } from './exit-code.js';

export interface EtlErrorOptions {
  /** What the user can do about it; printed after the message. */
  readonly hint?: string | undefined;
  readonly cause?: unknown;
  /** Machine-readable facts (status, field, url…); never secrets. */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Every error venue-etl raises on purpose: a stable `code` users can grep for, a message that
 * says what is wrong, and a hint that says how to fix it. The original error travels as `cause`.
 * The exit status comes from the code's row in `ERROR_RULES`.
 */
export class EtlError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: EtlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EtlError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = ERROR_RULES[code].exitCode;
    this.details = options.details ?? {};
  }
}

/** Bad command-line usage: exit 2, nothing touched. */
export class UsageError extends EtlError {
  constructor(message: string, hint?: string) {
    super('VENUE_ETL_USAGE', message, { hint });
    this.name = 'UsageError';
  }
}

export function isEtlError(error: unknown): error is EtlError {
  return error instanceof EtlError;
}

/** One line for a human: `CODE: message` and the hint on the next line. */
export function formatError(error: unknown): string {
  if (isEtlError(error)) {
    return `${error.code}: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `VENUE_ETL_INTERNAL: ${message}`;
}
