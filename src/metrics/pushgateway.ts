import type { Registry } from 'prom-client';
import { scrubSecrets } from '../log/index.js';

export interface Grouping {
  readonly job: string;
  readonly instance: string;
  /** `0/4` for a shard; `none` for a worker that runs every venue. */
  readonly shard: string;
}

/**
 * Pushes a registry to a Pushgateway's group job/instance/shard (POST: metrics of the same
 * names are replaced, others kept — so a failed run's push leaves the last success time of the
 * run before it). Label values go base64url-encoded (`@base64`), so a `/` in `0/4` is safe.
 */
export async function pushMetrics(gateway: string, grouping: Grouping, registry: Registry, timeoutMs: number): Promise<void> {
  const url = `${gateway.replace(/\/+$/, '')}/metrics${segment('job', grouping.job)}${segment('instance', grouping.instance)}${segment('shard', grouping.shard)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': registry.contentType },
      body: await registry.metrics(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new Error(scrubSecrets(`the Pushgateway did not take the metrics: ${cause}`));
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new Error(scrubSecrets(`the Pushgateway answered HTTP ${response.status}: ${text.slice(0, 200)}`));
}

function segment(name: string, value: string): string {
  return `/${name}@base64/${Buffer.from(value, 'utf8').toString('base64url') || '='}`;
}
