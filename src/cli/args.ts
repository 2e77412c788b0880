import { calendarDateProblem } from '../calendar/index.js';
import { UsageError } from '../errors/index.js';
import type { ParsedArgs } from './command.js';

/** Typed accessors for parsed options, raising usage errors (exit 2) that name the option. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

export function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`, `e.g. --${name} a,b`);
  return items;
}

export function intOption(args: ParsedArgs, name: string, { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  const number = Number(value);
  if (number < min || number > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${number}`);
  return number;
}

/** A `YYYY-MM-DD` calendar date (UTC). */
export function dateOption(args: ParsedArgs, name: string): string | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  const problem = calendarDateProblem(value);
  if (problem !== undefined) {
    throw new UsageError(problem.startsWith(value) ? `--${name}: ${problem}` : `--${name} must be a date YYYY-MM-DD (UTC), got "${value}"`);
  }
  return value;
}
