export { createLogger, LOG_LEVELS } from './logger.js';
export type { Logger, LogLevel, LoggerOptions } from './logger.js';
export { registerSecret, scrubSecrets } from './secrets.js';
