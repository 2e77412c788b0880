import { ruleOf } from '../errors/index.js';

/**
 * Errors that make every other slice of the run pointless (their rows in `ERROR_RULES`): the
 * token is refused, the API asks to wait longer than allowed, or the warehouse cannot be
 * written. Anything else fails its slice only.
 */
export function isFatalForRun(error: unknown): boolean {
  return ruleOf(error).fatalForRun;
}
