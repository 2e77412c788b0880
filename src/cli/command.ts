import type { ExitCode } from '../errors/index.js';
import { LOG_LEVELS } from '../log/index.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Shown by --help, e.g. `--from DATE   first day to extract`. */
  readonly description: string;
  readonly valueName?: string;
  /** Accepted but not shown by --help or completion: an older name kept for scripts (sync's --until). */
  readonly hidden?: boolean;
  /** The values completion offers (streams, formats, grains); `list`: several, comma-separated. */
  readonly choices?: readonly string[];
  readonly list?: boolean;
}

/** What a command can touch besides its arguments: injected so tests can run it in-process. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Read by `sql -` only; the process's own when absent. */
  readonly stdin?: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM: long-running work stops cleanly after what is committing. */
  readonly signal: AbortSignal;
  /** Aborted on a second signal: stop waiting for anything, but still record the run. */
  readonly hurry?: AbortSignal;
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/** One CLI command: a row of data plus a run function (one file per command). */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Positional arguments shown in usage, e.g. `"QUERY"` or `[NAME]`. */
  readonly positionals?: string;
  readonly maxPositionals?: number;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** What completion offers for the positional argument (report names, check names, shells). */
  readonly positionalChoices?: () => readonly string[];
  /** Needs no config file (demo, simulate). */
  readonly noConfig?: boolean;
  run(args: ParsedArgs, io: CommandIo): Promise<ExitCode>;
}

/** Options every command takes (docs/commands.md, "Options every command takes"). */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  config: { type: 'string', description: 'config file', valueName: 'PATH' },
  'log-level': { type: 'string', description: LOG_LEVELS.join('|'), valueName: 'LEVEL', choices: LOG_LEVELS },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/** The options `command` takes: its own and the global ones, without `--config` when it reads none. */
export function commandOptions(command: Command): Readonly<Record<string, OptionSpec>> {
  const { config, ...rest } = GLOBAL_OPTIONS;
  return { ...command.options, ...(command.noConfig ? rest : { config, ...rest }) };
}
