import { displayUrl, tokenRedactor } from '../api/display-url.js';
import type { ApiClient } from '../api/client.js';
import type { Logger } from '../log/index.js';
import type { Warehouse } from '../warehouse/index.js';

/**
 * A run records the API's rate limit it found (`sync_runs.detail.api`) and the next run against
 * the same API starts paced just under it (docs/rate-limits.md). Learning the limit from
 * scratch costs a fixed 7-13 refusals at R 10 (3-4 % of a 30-s run, B10); a nightly job pays it
 * once. A wrong memory costs little: a limit since lowered is refused and found again, one since
 * raised is found as the pace grows (a doubled one in ~25 s).
 */

/** The API settings a run is recorded against. */
export interface ApiAddress {
  readonly baseUrl: string;
  readonly token: string;
}

/**
 * The API as runs record it: origin and path (never a user or password; credential-like query
 * values masked, and the token itself should a URL carry it).
 */
export function apiUrlOf(api: ApiAddress): string {
  return displayUrl(new URL(api.baseUrl), tokenRedactor(api.token), { withOrigin: true });
}

/** Starts the client paced under the limit the latest run against this API found, if any. */
export async function startFromRememberedRateLimit(
  warehouse: Pick<Warehouse, 'rememberedRateLimit'>,
  client: ApiClient,
  api: ApiAddress,
  logger: Logger,
): Promise<void> {
  let remembered: number | undefined;
  try {
    remembered = await warehouse.rememberedRateLimit(apiUrlOf(api));
  } catch (error) {
    // Only a head start: without it the client finds the limit again.
    logger.warn({ err: error }, 'could not read the rate limit an earlier run found; finding it again');
    return;
  }
  if (remembered === undefined) return;
  client.rememberRateLimit(remembered);
  logger.info({ requestsPerSecond: round(remembered) }, 'api rate limit found by an earlier run: requests start paced just under it');
}

/** What a run records for the next one: `detail.api`. */
export function rateLimitDetail(client: ApiClient, api: ApiAddress): { api: { url: string; rateLimitPerSecond: number | null } } {
  const limit = client.stats.rateLimit;
  return { api: { url: apiUrlOf(api), rateLimitPerSecond: limit === undefined ? null : round(limit) } };
}

function round(perSecond: number): number {
  return Math.round(perSecond * 1000) / 1000;
}
