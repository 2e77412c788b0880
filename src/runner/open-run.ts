import { createApiClient, type ApiClient } from '../api/client.js';
import type { ApiReadyConfig as Config } from '../config/index.js';
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
 * One cheap request before the warehouse is opened: a refused token (or a wrong base URL) fails
 * here, with nothing written anywhere. Its answer's `Date` header is the API's clock, read
 * against the machine's (`now`) when the answer arrives.
 */
export async function checkAccess(client: ApiClient, now: () => Date, signal?: AbortSignal): Promise<RunClock> {
  let date: string | undefined;
  await client.getDocument('/accounts/filtered-accounts/me/', {
    stream: 'accounts',
    onResponseDate: (value) => {
      date = value;
    },
    ...(signal ? { signal } : {}),
  });
  return runClock(now(), date);
}
