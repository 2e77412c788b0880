import {
  loadConfigFor,
  loadReadSideConfigFile,
  loadCredentialFreeConfigFile,
  DEFAULT_CONFIG_PATH,
  type Config,
  type ConfigCommand,
  type ReadSideConfig,
} from '../config/index.js';
import { createLogger, LOG_LEVELS, type Logger, type LogLevel } from '../log/index.js';
import { UsageError } from '../errors/index.js';
import { stringOption } from './args.js';
import type { CommandIo, ParsedArgs } from './command.js';

export function configPath(args: ParsedArgs): string {
  return stringOption(args, 'config') ?? DEFAULT_CONFIG_PATH;
}

/** What `command` reads of the config, and what it needs (docs/configuration.md, "What each command reads"). */
export function loadCommandConfig(args: ParsedArgs, io: CommandIo, command: ConfigCommand): Config {
  return loadConfigFor(command, configPath(args), io.env);
}

/**
 * For sql, report, check, status and export: they need the warehouse and Parquet paths only, so
 * the API, receiver and schedule blocks (and the secrets they reference) are not resolved.
 */
export function loadReadSideCommandConfig(args: ParsedArgs, io: CommandIo): ReadSideConfig {
  return loadReadSideConfigFile(configPath(args), io.env);
}

/** For merge-events: the whole config but its credentials (see `loadCredentialFreeConfigFile`). */
export function loadCredentialFreeCommandConfig(args: ParsedArgs, io: CommandIo): Config {
  return loadCredentialFreeConfigFile(configPath(args), io.env);
}

/** `--log-level` wins over `log.level` from the config, which wins over `fallback`. */
export function commandLogger(args: ParsedArgs, io: CommandIo, config?: Pick<Config, 'log'>, fallback: LogLevel = 'info'): Logger {
  const flag = stringOption(args, 'log-level');
  if (flag !== undefined && !(LOG_LEVELS as readonly string[]).includes(flag)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${flag}"`);
  }
  const level = (flag as LogLevel | undefined) ?? config?.log.level ?? fallback;
  return createLogger({ level, destination: io.stderr });
}
