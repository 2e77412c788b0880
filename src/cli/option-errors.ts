import { UsageError } from '../errors/index.js';
import { closestName } from '../infra/did-you-mean.js';
import type { Command, OptionSpec } from './command.js';

/**
 * Node's `parseArgs` errors said in this CLI's words: the option named, the closest one the
 * command takes suggested (`--venus` → `--venues`), instead of Node's text about positional
 * arguments after `--`, which is the wrong fix for a typo.
 */
export function optionError(error: unknown, command: Command, options: Readonly<Record<string, OptionSpec>>): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const help = `see venue-etl ${command.name} --help`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const typed = /Unknown option '([^']+)'/.exec(message)?.[1] ?? message;
    if (typed === '--config' && command.noConfig) return new UsageError(`${command.name} reads no config file: leave out --config`, help);
    const close = closestName(typed.replace(/^-+/, ''), Object.keys(options));
    return new UsageError(`unknown option "${typed}" for ${command.name}${close === undefined ? '' : `; did you mean "--${close}"?`}`, help);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
    if (missing) {
      const name = missing[1]!.slice(2);
      return new UsageError(`${missing[1]} needs a value (${options[name]?.valueName ?? 'VALUE'})`, help);
    }
    const extra = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
    if (extra) return new UsageError(`${extra[1]} takes no value`, help);
  }
  return new UsageError(message, help);
}
