/**
 * Errors that make every other slice of the run pointless: the token is refused (each request
 * would be refused too), the API asks to wait longer than allowed, or the warehouse cannot be
 * written. Anything else fails its slice only — hostile answers included (a body too large or
 * in an encoding not asked for, a redirect, a looping or foreign links.next): they come from
 * one request and say nothing about the others.
 */
const FATAL_CODES = new Set(['VENUE_API_AUTH', 'VENUE_API_RETRY_AFTER_TOO_LONG']);

export function isFatalForRun(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (FATAL_CODES.has(code) || code.startsWith('VENUE_WAREHOUSE'));
}
