export { EtlError, UsageError, ExitCode, isEtlError, formatError } from './etl-error.js';
export type { EtlErrorOptions } from './etl-error.js';
