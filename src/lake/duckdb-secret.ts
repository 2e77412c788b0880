import { S3Client } from '@aws-sdk/client-s3';
import { registerSecret } from '../log/index.js';
import { lakeError } from './errors.js';
import { S3Settings, type S3SettingsInput } from './settings.js';
import { describeKey, type S3Target } from './target.js';

/** What DuckDB's httpfs needs to reach a lake: the store's address and the resolved key pair. */
export interface DuckdbS3Secret {
  readonly keyId: string;
  readonly secret: string;
  readonly sessionToken: string | undefined;
  readonly region: string;
  /** `host[:port]`, without the scheme (httpfs takes the scheme from `useSsl`); undefined for AWS. */
  readonly endpoint: string | undefined;
  readonly urlStyle: 'path' | 'vhost';
  readonly useSsl: boolean;
  /** The secret applies to this lake only: `s3://bucket/prefix`. */
  readonly scope: string;
}

/**
 * The settings of `parquet.s3` and the credentials the AWS SDK resolves for them (the
 * `${VARIABLE}`s of the config, else the environment or the profile — the same chain export
 * uses), as DuckDB's S3 secret takes them. The secret values are registered with the log's
 * scrubber before anything can print them.
 */
export async function duckdbS3Secret(target: S3Target, input: S3SettingsInput | undefined): Promise<DuckdbS3Secret> {
  const settings = S3Settings.parse(input ?? {});
  const region = settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const { accessKeyId, secretAccessKey, sessionToken, profile } = settings;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    region,
    ...(profile === undefined ? {} : { profile }),
    ...(accessKeyId === undefined || secretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) } }),
  });
  try {
    const identity = await client.config.credentials();
    registerSecret(identity.secretAccessKey);
    registerSecret(identity.sessionToken);
    const endpoint = settings.endpoint === undefined ? undefined : new URL(settings.endpoint);
    return {
      keyId: identity.accessKeyId,
      secret: identity.secretAccessKey,
      sessionToken: identity.sessionToken,
      region,
      endpoint: endpoint?.host,
      urlStyle: settings.forcePathStyle === true ? 'path' : 'vhost',
      useSsl: endpoint === undefined || endpoint.protocol === 'https:',
      scope: describeKey(target),
    };
  } catch (error) {
    throw lakeError(error, 'reading', describeKey(target), settings.endpoint);
  } finally {
    client.destroy();
  }
}
