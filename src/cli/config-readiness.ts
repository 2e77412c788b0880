import {
  CONFIG_COMMANDS,
  commandProblems,
  commandsSetUp,
  ConfigError,
  variablesByCommand,
  type Config,
  type ConfigCommand,
  type ConfigProblem,
} from '../config/index.js';

/** Whether one command can run with this config, and the variables it needs set. */
export interface Readiness {
  readonly command: ConfigCommand;
  /** The file is set up for it (commandsSetUp): its problems fail `venue-etl config`. */
  readonly setUp: boolean;
  readonly problems: readonly ConfigProblem[];
  readonly variables: readonly string[];
}

/**
 * Every command's needs checked against the config (`source` names it in errors): the problems
 * of a command the file is set up for fail with exit 2, each naming the commands that need the
 * key; the others' are noted in the readiness lines.
 */
export function commandReadiness(raw: unknown, config: Config, source: string): Readiness[] {
  const setUp = commandsSetUp(raw);
  const variables = variablesByCommand(raw);
  const all = CONFIG_COMMANDS.map((command) => ({
    command,
    setUp: setUp.includes(command),
    problems: commandProblems(command, config),
    variables: variables.get(command) ?? [],
  }));
  const failing = all.filter((r) => r.setUp && r.problems.length > 0);
  if (failing.length > 0) {
    throw new ConfigError(
      source,
      neededBy(failing),
      'Set the listed keys for the commands named; docs/configuration.md, "What each command reads", has the table.',
    );
  }
  return all;
}

/** One problem per key and message, naming every command it stops. */
function neededBy(failing: readonly Readiness[]): ConfigProblem[] {
  const byProblem = new Map<string, { problem: ConfigProblem; commands: string[] }>();
  for (const { command, problems } of failing) {
    for (const problem of problems) {
      const key = `${problem.path}\u0000${problem.message}`;
      const entry = byProblem.get(key) ?? { problem, commands: [] };
      entry.commands.push(command);
      byProblem.set(key, entry);
    }
  }
  return [...byProblem.values()].map(({ problem, commands }) => ({ ...problem, message: `${problem.message} (needed by ${commands.join(', ')})` }));
}

/** The table `venue-etl config` prints on stderr: commands with the same needs on one line. */
export function readinessLines(readiness: readonly Readiness[]): string[] {
  const lines = new Map<string, ConfigCommand[]>();
  for (const r of readiness) {
    const status = r.problems.length === 0 ? 'ready' : `not ready: ${r.problems.map((p) => `${p.path} ${p.message}`).join('; ')}`;
    const text = `${status}; ${r.variables.length === 0 ? 'no variables' : `variables: ${r.variables.join(', ')}`}`;
    lines.set(text, [...(lines.get(text) ?? []), r.command]);
  }
  return ['what each command needs:', ...[...lines].map(([text, commands]) => `  ${commands.join(', ')}: ${text}`)];
}
