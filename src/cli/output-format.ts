import { parseFormat } from '../readside/index.js';
import { stringOption } from './args.js';
import type { CommandIo, OptionSpec, ParsedArgs } from './command.js';
import { terminalWidth } from './terminal.js';

/** `--format` of commands that print a report for people or, with json, one document for scripts. */
export const TABLE_OR_JSON_OPTION: OptionSpec = {
  type: 'string',
  description: 'table (default, fits the terminal) or json (one document on stdout)',
  valueName: 'FORMAT',
  choices: ['table', 'json'],
};

export type TableOrJson = 'table' | 'json';

export function tableOrJson(args: ParsedArgs): TableOrJson {
  return parseFormat(stringOption(args, 'format'), ['table', 'json']) === 'json' ? 'json' : 'table';
}

/** One JSON document on stdout, indented, ending with a newline: `jq` and `JSON.parse` read it whole. */
export function writeJson(io: CommandIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The width tables on stdout are laid out to (undefined: not a terminal and no COLUMNS). */
export function stdoutWidth(io: CommandIo): number | undefined {
  return terminalWidth(io.stdout, io.env);
}
