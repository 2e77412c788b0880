import { EtlError } from '../errors/index.js';

/** Test-only: an ISO 8601 instant that replaces the machine's clock for sync and backfill. */
const TEST_NOW_VARIABLE = 'VENUE_ETL_TEST_NOW';

/**
 * The machine's clock as a run reads it. VENUE_ETL_TEST_NOW replaces it: a hook for tests that
 * run the built CLI with a clock days ahead of or behind the API's, which a test cannot do to the
 * system clock. Never set in production; a value that is not an instant stops the command.
 */
export function machineNow(env: Readonly<Record<string, string | undefined>> = process.env): Date {
  const text = env[TEST_NOW_VARIABLE];
  if (text === undefined || text === '') return new Date();
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || !/(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    throw new EtlError('VENUE_ETL_TEST_NOW', `${TEST_NOW_VARIABLE} is not an ISO 8601 instant with an offset: "${text}"`, {
      hint: `it is a test hook: unset ${TEST_NOW_VARIABLE}, or give e.g. 2026-11-20T12:00:00Z`,
    });
  }
  return new Date(ms);
}
