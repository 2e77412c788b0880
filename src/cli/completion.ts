import { commandOptions, type Command, type OptionSpec } from './command.js';

/** Shells `venue-etl completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Option values completed as file names (the others are free text, or their `choices`). */
const PATH_VALUES = new Set(['PATH', 'DIR', 'FILE']);

/**
 * A completion script built from the command list, so a new command or option is completable
 * the moment it is registered: commands after `venue-etl`, each command's options after it,
 * file names after options taking a PATH/DIR/FILE, an option's `choices` after it (streams,
 * formats, levels; item by item in a comma-separated list), and the positional's choices
 * (report names) where the command has them.
 */
export function completionScript(shell: CompletionShell, commands: readonly Command[]): string {
  return shell === 'bash' ? bashScript(commands) : zshScript(commands);
}

function optionsOf(command: Command): [string, OptionSpec][] {
  return Object.entries(commandOptions(command)).filter(([, spec]) => !spec.hidden);
}

const isPath = (spec: OptionSpec): boolean => spec.type === 'string' && PATH_VALUES.has(spec.valueName ?? '');

/** `"sync --streams"|"reset --streams") _venue_etl_choose "…" list; return 0 ;;`: one line per distinct set of choices. */
function bashChoiceCases(commands: readonly Command[]): string[] {
  const cases = new Map<string, string[]>();
  for (const command of commands) {
    for (const [name, spec] of optionsOf(command)) {
      if (!spec.choices) continue;
      const action = `_venue_etl_choose "${spec.choices.join(' ')}"${spec.list ? ' list' : ''}`;
      cases.set(action, [...(cases.get(action) ?? []), `"${command.name} --${name}"`]);
    }
  }
  return [...cases].map(([action, patterns]) => `    ${patterns.join('|')}) ${action}; return 0 ;;`);
}

function bashScript(commands: readonly Command[]): string {
  const all = commands.flatMap(optionsOf);
  const pathOptions = [...new Set(all.filter(([, spec]) => isPath(spec)).map(([name]) => `*" --${name}"`))];
  const valueOptions = [...new Set(all.filter(([, spec]) => spec.type === 'string' && !isPath(spec) && !spec.choices).map(([name]) => `*" --${name}"`))];
  return [
    '# venue-etl completion for bash: eval "$(venue-etl completion bash)" (e.g. in ~/.bashrc)',
    '# _venue_etl_choose WORDS [list]: the words that start like the current one; with list, the last item after a comma.',
    '_venue_etl_choose() {',
    '  local word="${COMP_WORDS[COMP_CWORD]}" before=""',
    '  if [ "$2" = list ] && [[ "$word" == *,* ]]; then before="${word%,*},"; word="${word##*,}"; fi',
    '  COMPREPLY=( $(compgen -P "$before" -W "$1" -- "$word") )',
    '}',
    '_venue_etl() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  COMPREPLY=()',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} help --help --version" -- "$cur") )`,
    '    return 0',
    '  fi',
    '  case "${COMP_WORDS[1]} $prev" in',
    ...bashChoiceCases(commands),
    ...(pathOptions.length > 0 ? [`    ${pathOptions.join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;`] : []),
    ...(valueOptions.length > 0 ? [`    ${valueOptions.join('|')}) return 0 ;;`] : []),
    '  esac',
    '  local options="" positionals=""',
    '  case "${COMP_WORDS[1]}" in',
    `    help) positionals="${commands.map((c) => c.name).join(' ')}" ;;`,
    ...commands.map((c) => {
      const options = optionsOf(c)
        .map(([name]) => `--${name}`)
        .join(' ');
      const positionals = c.positionalChoices ? ` positionals="${c.positionalChoices().join(' ')}"` : '';
      return `    ${c.name}) options="${options}"${positionals} ;;`;
    }),
    '  esac',
    '  if [[ "$cur" != -* && -n "$positionals" ]]; then',
    '    COMPREPLY=( $(compgen -W "$positionals" -- "$cur") )',
    '    return 0',
    '  fi',
    '  COMPREPLY=( $(compgen -W "$options" -- "$cur") )',
    '}',
    'complete -o default -F _venue_etl venue-etl',
    '',
  ].join('\n');
}

/** Text inside a single-quoted zsh word, and inside an _arguments `[explanation]`. */
const zshQuoted = (text: string): string => text.replace(/'/g, `'\\''`);
const zshExplanation = (text: string): string => zshQuoted(text.replace(/[\\[\]:]/g, (c) => `\\${c}`));

function zshOption(name: string, spec: OptionSpec): string {
  const explanation = `[${zshExplanation(spec.description)}]`;
  if (spec.type === 'boolean') return `'--${name}${explanation}'`;
  const valueName = spec.valueName ?? 'VALUE';
  const action = spec.choices
    ? spec.list
      ? `_values -s , ${name} ${spec.choices.join(' ')}`
      : `(${spec.choices.join(' ')})`
    : PATH_VALUES.has(valueName)
      ? '_files'
      : ' ';
  return `'--${name}=${explanation}:${zshExplanation(valueName)}:${action}'`;
}

function zshPositional(command: Command): string {
  return command.positionalChoices ? `'1:${zshExplanation(command.positionals ?? 'NAME')}:(${command.positionalChoices().join(' ')})'` : `'*:file:_files'`;
}

function zshScript(commands: readonly Command[]): string {
  return [
    '#compdef venue-etl',
    '# venue-etl completion for zsh: eval "$(venue-etl completion zsh)" (e.g. in ~/.zshrc, after compinit)',
    '_venue_etl() {',
    '  local -a commands',
    '  commands=(',
    ...commands.map((c) => `    '${zshQuoted(c.name)}:${zshQuoted(c.summary)}'`),
    '  )',
    '  if (( CURRENT == 2 )); then',
    "    _describe 'command' commands",
    '    return',
    '  fi',
    '  case $words[2] in',
    `    help) _arguments '1:COMMAND:(${commands.map((c) => c.name).join(' ')})' ;;`,
    ...commands.map(
      (c) =>
        `    ${c.name}) _arguments ${optionsOf(c)
          .map(([name, spec]) => zshOption(name, spec))
          .join(' ')} ${zshPositional(c)} ;;`,
    ),
    '  esac',
    '}',
    'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _venue_etl "$@"; else compdef _venue_etl venue-etl; fi',
    '',
  ].join('\n');
}
