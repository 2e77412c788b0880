import { S3ServiceException } from '@aws-sdk/client-s3';
import { codeOf, EtlError } from '../errors/index.js';
import { scrubSecrets } from '../log/index.js';

/** Node's and undici's codes for "no connection to that host" (refused, unknown, reset, slow). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const DENIED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken', 'Forbidden', 'AllAccessDisabled']);
const BUSY = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'TimeoutError']);

const ENDPOINT_HINT = 'Check parquet.s3.endpoint (scheme, host and port) and that the object store is running and reachable from here.';

/**
 * An error of the SDK (or the network, or the local file) as a stable code with a hint. The
 * message names the operation and the object, never a credential: the SDK's own text passes
 * through the secret scrubber and the credentials of this store are registered with it.
 */
export function lakeError(error: unknown, operation: string, where: string, endpoint: string | undefined): EtlError {
  if (error instanceof EtlError) return error;
  const name = error instanceof Error ? error.name : '';
  const code = codeOf(error) ?? causeCode(error);
  const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
  const said = describe(error, name, status);
  const at = endpoint === undefined ? '' : ` at ${endpoint}`;
  if (name === 'AbortError') return new EtlError('VENUE_LAKE_ABORTED', `${operation} ${where} was interrupted`, { cause: error });
  if (name === 'CredentialsProviderError' || name === 'CredentialsError') {
    return new EtlError('VENUE_LAKE_CREDENTIALS', `${operation} ${where}: no AWS credentials were found (${said})`, {
      hint: 'Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or parquet.s3.profile) in the environment of this command.',
      cause: error,
    });
  }
  if ((code !== undefined && NETWORK_CODES.has(code)) || (status === undefined && name === 'TimeoutError')) {
    return new EtlError('VENUE_LAKE_UNREACHABLE', `${operation} ${where}: the object store${at} cannot be reached (${code ?? name})`, {
      hint: ENDPOINT_HINT,
      cause: error,
    });
  }
  if (name === 'NoSuchBucket') {
    return new EtlError('VENUE_LAKE_NO_SUCH_BUCKET', `${operation} ${where}: the bucket does not exist${at}`, {
      hint: 'Create the bucket, or fix the bucket name in parquet.dir (s3://bucket/prefix); on an S3-compatible store also check parquet.s3.endpoint and forcePathStyle.',
      cause: error,
    });
  }
  if (DENIED.has(name) || status === 401 || status === 403) {
    return new EtlError('VENUE_LAKE_ACCESS_DENIED', `${operation} ${where}: the object store refused the credentials or the action (${said})`, {
      hint: "Check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the profile) and that they may list, read, write and delete objects under the prefix; parquet.s3.region must be the bucket's region.",
      cause: error,
    });
  }
  if (BUSY.has(name) || (status !== undefined && status >= 500)) {
    return new EtlError('VENUE_LAKE_SERVER', `${operation} ${where}: the object store failed (${said})`, {
      hint: 'The store is busy or failing; run the command again later.',
      cause: error,
    });
  }
  return new EtlError('VENUE_LAKE_REQUEST', `${operation} ${where} failed (${said})`, {
    hint: 'Check parquet.dir and parquet.s3 (endpoint, region, forcePathStyle: true for most S3-compatible stores).',
    cause: error,
  });
}

function describe(error: unknown, name: string, status: number | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const short = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  const parts = [name, status === undefined ? '' : `HTTP ${status}`, short === name || short === 'UnknownError' ? '' : short].filter((p) => p !== '');
  return scrubSecrets(parts.join(', '));
}

function causeCode(error: unknown): string | undefined {
  return error instanceof Error ? codeOf(error.cause) : undefined;
}
