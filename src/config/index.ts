export { ConfigSchema, SummaryGrain, summaryGrains, dayHorizonDays, DEFAULT_DAY_HORIZON_DAYS, HistoryGrain, historyGrains, NOTIFY_EVENTS } from './schema.js';
export type { Config, ConfigInput, ApiConfig, ApiReadyConfig, NotifyEvent } from './schema.js';
export {
  loadConfigFile,
  loadConfigFor,
  loadWholeConfigFile,
  resolveConfigFor,
  resolveWholeConfig,
  loadReadSideConfigFile,
  loadCredentialFreeConfigFile,
  resolveConfig,
  resolveReadSideConfig,
  requireApi,
  ConfigError,
  DEFAULT_CONFIG_PATH,
  OPTIONAL_BLOCKS,
} from './load.js';
export type { OptionalBlock, ReadSideConfig } from './load.js';
export { CONFIG_BLOCKS, CONFIG_COMMANDS, blocksRead, commandProblems, commandsSetUp, variablesByCommand } from './command-needs.js';
export type { ConfigBlock, ConfigCommand } from './command-needs.js';
export { maskConfig, printableConfig, registerConfigSecrets } from './mask.js';
export { VenueEntry, venueKey } from './venue-entries.js';
export { maskUrlCredentials, urlCredentials } from './url-credentials.js';
export type { ConfigProblem } from './interpolate.js';
export { starterConfig, starterEnvExample, TOKEN_VARIABLE } from './starter.js';
export type { StarterValues } from './starter.js';
