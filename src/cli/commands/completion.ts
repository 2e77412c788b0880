import { ExitCode, UsageError } from '../../errors/index.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion.js';
import type { Command } from '../command.js';

export const completionCommand: Command = {
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
    // Imported when run: the command list includes this command (a static import would be a cycle).
    const { COMMANDS } = await import('./index.js');
    io.stdout.write(completionScript(shell, COMMANDS));
    return ExitCode.ok;
  },
};

function isShell(value: string | undefined): value is CompletionShell {
  return (COMPLETION_SHELLS as readonly (string | undefined)[]).includes(value);
}
