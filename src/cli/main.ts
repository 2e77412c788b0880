import { parseArgs } from 'node:util';
import { ExitCode, UsageError, formatError } from '../errors/index.js';
import { didYouMean } from '../infra/did-you-mean.js';
import { packageInfo } from '../infra/package-root.js';
import { isOutputClosed, outputClosed } from '../infra/write-piece.js';
import { scrubSecrets } from '../log/index.js';
import { commandOptions, type Command, type CommandIo, type ParsedArgs } from './command.js';
import { commandHelp, mainHelp } from './help.js';
import { optionError } from './option-errors.js';
import { COMMANDS } from './commands/index.js';

/** Runs one CLI invocation; returns the exit status instead of exiting (testable in-process). */
export async function runCli(argv: readonly string[], io: CommandIo, commands: readonly Command[] = COMMANDS): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // A usage error: the help goes where errors go, so `venue-etl | less` or `$(venue-etl)` shows it.
    io.stderr.write(mainHelp(commands));
    return ExitCode.usage;
  }
  const asksHelp = name === '--help' || name === '-h' || name === 'help';
  const topic = asksHelp ? rest[0] : undefined;
  if (asksHelp && topic === undefined) {
    io.stdout.write(mainHelp(commands));
    return ExitCode.ok;
  }
  if (name === '--version') {
    io.stdout.write(`${packageInfo().version}\n`);
    return ExitCode.ok;
  }
  try {
    // `venue-etl help sync` is `venue-etl sync --help`, as in git and npm.
    if (topic !== undefined) {
      io.stdout.write(commandHelp(findCommand(commands, topic)));
      return ExitCode.ok;
    }
    const command = findCommand(commands, name);
    const args = parseCommandArgs(command, rest);
    if (args.values.help === true) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    // The reader of stdout is gone (`venue-etl report … | head`): it has what it asked for, the
    // read stopped (its transaction rolled back), and there is nothing to say, as `rg` does. Only
    // when stdout itself is closed: an EPIPE of a socket (the lake, a webhook) is a failure.
    if (isOutputClosed(error) && outputClosed(io.stdout)) return ExitCode.ok;
    io.stderr.write(`${scrubSecrets(formatError(error))}\n`);
    const exitCode = (error as { exitCode?: ExitCode }).exitCode;
    if (exitCode === undefined && process.env.VENUE_ETL_DEBUG) io.stderr.write(`${scrubSecrets(String((error as Error).stack))}\n`);
    return exitCode ?? ExitCode.failed;
  }
}

function findCommand(commands: readonly Command[], name: string): Command {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const names = commands.map((c) => c.name);
  throw new UsageError(`unknown command "${name}"${didYouMean(name, names)}`, `commands: ${names.join(', ')}`);
}

function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const options = commandOptions(command);
  try {
    const parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(options).map(([key, spec]) => [key, spec.short ? { type: spec.type, short: spec.short } : { type: spec.type }]),
      ),
      allowPositionals: true,
      strict: true,
    });
    const max = command.maxPositionals ?? 0;
    if (parsed.positionals.length > max) {
      throw new UsageError(
        `venue-etl ${command.name} takes ${max === 0 ? 'no' : `at most ${max}`} positional argument${max === 1 ? '' : 's'}, got: ${parsed.positionals.join(' ')}`,
        `see venue-etl ${command.name} --help`,
      );
    }
    return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw optionError(error, command, options);
  }
}
