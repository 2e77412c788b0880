import { createApiClient, type ApiClient } from '../api/client.js';
import type { Catalogue } from '../catalogue/index.js';
import type { ApiReadyConfig as Config } from '../config/index.js';
import { accessCheck } from '../extract/index.js';
import type { Logger } from '../log/index.js';
import { runClock, type RunClock } from './run-clock.js';

export function clientFor(config: Config, logger: Logger): ApiClient {
  return createApiClient({
    baseUrl: config.api.baseUrl,
    token: config.api.token,
    concurrency: config.api.concurrency,
    timeoutMs: config.api.timeoutMs,
    maxRetries: config.api.maxRetries,
    maxRetryAfterMs: config.api.maxRetryAfterMs,
    maxResponseBytes: config.api.maxResponseBytes,
    maxPages: config.api.maxPages,
    logger,
    ...(config.api.maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond: config.api.maxRequestsPerSecond }),
  });
}

/**
 * The catalogue's access check, before the warehouse is opened (a refused token writes nothing).
 * Its answer's `Date` header is the API's clock, read against the machine's (`now`) when the
 * answer arrives.
 */
export async function checkAccess(client: ApiClient, catalogue: Pick<Catalogue, 'accessCheck'>, now: () => Date, signal?: AbortSignal): Promise<RunClock> {
  const date = await accessCheck(client, catalogue.accessCheck, signal);
  return runClock(now(), date);
}
