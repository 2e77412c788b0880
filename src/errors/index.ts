export { EtlError, UsageError, isEtlError, formatError } from './etl-error.js';
export type { EtlErrorOptions } from './etl-error.js';
export { ExitCode } from './exit-code.js';
export { ERROR_RULES, ruleOf, codeOf, isErrorCode } from './error-codes.js';
export type { ErrorCode, ErrorRule } from './error-codes.js';
