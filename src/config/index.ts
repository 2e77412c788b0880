export { ConfigSchema, SummaryGrain, UserEndpointRow, summaryGrains } from './schema.js';
export type { Config, ConfigInput, ApiConfig, ApiReadyConfig } from './schema.js';
export { loadConfigFile, resolveConfig, requireApi, ConfigError, DEFAULT_CONFIG_PATH } from './load.js';
export { maskConfig } from './mask.js';
export type { ConfigProblem } from './interpolate.js';
