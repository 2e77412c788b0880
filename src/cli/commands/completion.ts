import { ExitCode, UsageError } from '../../errors/index.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion.js';
import type { Command } from '../command.js';

/**
 * The completion command completes every command, itself included: it is given the list by the
 * file that makes the list (index.ts), so that file is the only one importing every command.
 */
export function completionCommand(commands: () => readonly Command[]): Command {
  return {
    name: 'completion',
    summary: 'Print a shell completion script for SHELL (bash or zsh), e.g. eval "$(venue-etl completion bash)".',
    positionals: 'SHELL',
    maxPositionals: 1,
    positionalChoices: () => COMPLETION_SHELLS,
    options: {},
    noConfig: true,
    async run(args, io) {
      const shell = args.positionals[0];
      if (!isShell(shell)) {
        throw new UsageError(
          `venue-etl completion needs a shell: ${COMPLETION_SHELLS.join(' or ')}${shell === undefined ? '' : `, got "${shell}"`}`,
          'e.g. eval "$(venue-etl completion bash)"',
        );
      }
      io.stdout.write(completionScript(shell, commands()));
      return ExitCode.ok;
    },
  };
}

function isShell(value: string | undefined): value is CompletionShell {
  return (COMPLETION_SHELLS as readonly (string | undefined)[]).includes(value);
}
