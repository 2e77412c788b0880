import { UsageError } from '../errors/index.js';
import { stringOption } from './args.js';
import type { OptionSpec, ParsedArgs } from './command.js';

/** `--venues`, the same wherever a command takes venues (docs/commands.md, "Choosing venues"). */
export function venuesOptionSpec(what = 'only these venues'): OptionSpec {
  return { type: 'string', description: `${what}: ids, id prefixes (8+ characters) or names, comma-separated`, valueName: 'V,V' };
}

/**
 * `--venues` as typed, for src/venue-names to resolve (a whole text that is a name may hold commas,
 * so it is not split here); undefined when not given.
 */
export function venuesOption(args: ParsedArgs): string[] | undefined {
  const value = stringOption(args, 'venues');
  if (value === undefined) return undefined;
  if (value.split(',').every((part) => part.trim() === ''))
    throw new UsageError('--venues needs at least one venue', 'e.g. --venues a00faf44,"North Hostel Lisbon"');
  return [value];
}
