import { registerSecret } from '../log/index.js';
import type { Config } from './schema.js';
import type { S3Settings } from '../lake/settings.js';
import { maskUrlCredentials, urlCredentials } from './url-credentials.js';
import { joinVenueEntries } from './venue-entries.js';

const MASK = '***';

/**
 * The resolved config with every secret replaced, for `venue-etl config` and logs: the token,
 * the receiver's and the dashboard's credentials, the object store's secret key and session token,
 * webhook URLs, and credentials written into URL-valued keys (`api.baseUrl`, `metrics.pushgateway`,
 * `lineage.url`).
 */
export function maskConfig(config: Config): Config {
  return {
    ...config,
    ...(config.api === undefined ? {} : { api: { ...config.api, baseUrl: maskUrlCredentials(config.api.baseUrl), token: MASK } }),
    receiver: {
      ...config.receiver,
      ...(config.receiver.authorization === undefined ? {} : { authorization: MASK }),
    },
    dashboard: {
      ...config.dashboard,
      ...(config.dashboard.authorization === undefined ? {} : { authorization: MASK }),
    },
    parquet: config.parquet.s3 === undefined ? config.parquet : { ...config.parquet, s3: maskS3(config.parquet.s3) },
    // A webhook URL is a credential as a whole (a Slack hook's path is its secret).
    notify: { ...config.notify, webhooks: config.notify.webhooks.map((hook) => ({ ...hook, url: MASK })) },
    metrics: config.metrics.pushgateway === undefined ? config.metrics : { ...config.metrics, pushgateway: maskUrlCredentials(config.metrics.pushgateway) },
    lineage: config.lineage.url === undefined ? config.lineage : { ...config.lineage, url: maskUrlCredentials(config.lineage.url) },
  };
}

function maskS3(s3: S3Settings): S3Settings {
  return {
    ...s3,
    ...(s3.secretAccessKey === undefined ? {} : { secretAccessKey: MASK }),
    ...(s3.sessionToken === undefined ? {} : { sessionToken: MASK }),
  };
}

/**
 * Registers the config's secrets with the log's scrubber, so they are masked in every log line,
 * error and stored message: the token, the receiver credential, and the credentials of any URL
 * in any key (so a URL-valued key added later is covered without a change here).
 */
export function registerConfigSecrets(config: Config): void {
  registerSecret(config.api?.token);
  registerSecret(config.receiver.authorization);
  registerSecret(config.dashboard.authorization);
  registerSecret(config.parquet.s3?.secretAccessKey);
  registerSecret(config.parquet.s3?.sessionToken);
  for (const hook of config.notify?.webhooks ?? []) registerWebhookUrl(hook.url);
  for (const text of stringsOf(config)) for (const secret of urlCredentials(text)) registerSecret(secret);
}

function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item);
}

/**
 * A webhook URL is masked whole, and so is its path and query (what makes a Slack hook secret),
 * wherever a message would quote them apart from the host.
 */
function registerWebhookUrl(url: string): void {
  registerSecret(url);
  try {
    const parsed = new URL(url);
    registerSecret(`${parsed.pathname}${parsed.search}`.length >= 8 ? `${parsed.pathname}${parsed.search}` : undefined);
  } catch {
    // Not a URL: the schema refuses it before this is reached.
  }
}

/**
 * What `venue-etl config` prints: the masked config with `scope.venues` written back the way
 * the file takes it (an id, or `{"id", "name"}` for a named venue), so the printed config loads.
 */
export function printableConfig(config: Config): Record<string, unknown> {
  const masked = maskConfig(config);
  return { ...masked, scope: { venues: joinVenueEntries(masked.scope), projects: masked.scope.projects } };
}
