import { commandOptions, type Command, type OptionSpec } from './command.js';

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  return Object.entries(options)
    .filter(([, spec]) => !spec.hidden)
    .map(([name, spec]) => {
      const flag = `--${name}${spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : ''}`;
      return `  ${flag.padEnd(28)} ${spec.description}`;
    });
}

export function commandHelp(command: Command): string {
  return [
    `Usage: venue-etl ${command.name}${command.positionals ? ` ${command.positionals}` : ''} [options]`,
    '',
    command.summary,
    '',
    'Options:',
    ...optionLines(commandOptions(command)),
    '',
  ].join('\n');
}

export function mainHelp(commands: readonly Command[]): string {
  return [
    'Usage: venue-etl <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`),
    '',
    'Every command takes --log-level LEVEL and --help; those that read a config, --config PATH (default ./venue-etl.config.json).',
    "`venue-etl help COMMAND` prints a command's options.",
    'Run `venue-etl demo` to see everything work against the built-in simulator.',
    '',
  ].join('\n');
}
