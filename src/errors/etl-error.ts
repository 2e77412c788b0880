/** Exit status of the CLI, as the contract fixes it. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface EtlErrorOptions {
  /** What the user can do about it; printed after the message. */
  readonly hint?: string;
  readonly cause?: unknown;
  readonly exitCode?: ExitCode;
  /** Machine-readable facts (status, field, url…); never secrets. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Every error venue-etl raises on purpose: a stable `code` users can grep for, a message that
 * says what is wrong, and a hint that says how to fix it. The original error travels as `cause`.
 */
export class EtlError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: EtlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EtlError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.failed;
    this.details = options.details ?? {};
  }
}

/** Bad command-line usage: exit 2, nothing touched. */
export class UsageError extends EtlError {
  constructor(message: string, hint?: string) {
    super('VENUE_ETL_USAGE', message, { hint, exitCode: ExitCode.usage });
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
