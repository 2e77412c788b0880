import { LOG_LEVELS } from '../log/index.js';
import { commandOptions, type Command, type OptionSpec } from './command.js';

/** Shells `venue-etl completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Option values completed as file names (the rest are free text, --log-level a fixed list). */
const PATH_VALUES = new Set(['PATH', 'DIR', 'FILE']);

/**
 * A completion script built from the command list, so a new command or option is completable
 * the moment it is registered: commands after `venue-etl`, each command's options after it,
 * file names after options taking a PATH/DIR/FILE, the levels after --log-level.
 */
export function completionScript(shell: CompletionShell, commands: readonly Command[]): string {
  return shell === 'bash' ? bashScript(commands) : zshScript(commands);
}

function optionsOf(command: Command): [string, OptionSpec][] {
  return Object.entries(commandOptions(command)).filter(([, spec]) => !spec.hidden);
}

function bashScript(commands: readonly Command[]): string {
  const all = commands.flatMap(optionsOf);
  const pathOptions = [...new Set(all.filter(([, spec]) => spec.type === 'string' && PATH_VALUES.has(spec.valueName ?? '')).map(([name]) => `--${name}`))];
  const valueOptions = [...new Set(all.filter(([, spec]) => spec.type === 'string').map(([name]) => `--${name}`))].filter(
    (name) => !pathOptions.includes(name) && name !== '--log-level',
  );
  return [
    '# venue-etl completion for bash: eval "$(venue-etl completion bash)" (e.g. in ~/.bashrc)',
    '_venue_etl() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  COMPREPLY=()',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur") )`,
    '    return 0',
    '  fi',
    '  case "$prev" in',
    `    --log-level) COMPREPLY=( $(compgen -W "${LOG_LEVELS.join(' ')}" -- "$cur") ); return 0 ;;`,
    ...(pathOptions.length > 0 ? [`    ${pathOptions.join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;`] : []),
    ...(valueOptions.length > 0 ? [`    ${valueOptions.join('|')}) return 0 ;;`] : []),
    '  esac',
    '  local options=""',
    '  case "${COMP_WORDS[1]}" in',
    ...commands.map(
      (c) =>
        `    ${c.name}) options="${optionsOf(c)
          .map(([name]) => `--${name}`)
          .join(' ')}" ;;`,
    ),
    '  esac',
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
  const action = name === 'log-level' ? `(${LOG_LEVELS.join(' ')})` : PATH_VALUES.has(valueName) ? '_files' : ' ';
  return `'--${name}=${explanation}:${valueName}:${action}'`;
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
    ...commands.map(
      (c) =>
        `    ${c.name}) _arguments ${optionsOf(c)
          .map(([name, spec]) => zshOption(name, spec))
          .join(' ')} '*:file:_files' ;;`,
    ),
    '  esac',
    '}',
    'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _venue_etl "$@"; else compdef _venue_etl venue-etl; fi',
    '',
  ].join('\n');
}
