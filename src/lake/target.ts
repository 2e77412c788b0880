/**
 * An object-store target written as `s3://bucket/prefix`: where export writes the lake when
 * `parquet.dir` names one instead of a local folder.
 */
export interface S3Target {
  readonly bucket: string;
  /** The key prefix without leading or trailing slashes; '' for the bucket's root. */
  readonly prefix: string;
}

const SCHEME = 's3://';

/**
 * S3's rules for bucket names (3–63 characters of lower-case letters, digits, dots and hyphens,
 * starting and ending with a letter or digit); MinIO, Ceph and Swift's s3api accept them too.
 */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Whether a `parquet.dir` value names an object store rather than a local folder. */
export function isS3Target(text: string): boolean {
  return text.slice(0, SCHEME.length).toLowerCase() === SCHEME;
}

/**
 * Parses `s3://bucket/prefix`; the problem, said so that it tells the fix, when the text is
 * not one. The text is never quoted back: a credential written into it must not be printed.
 */
export function parseS3Target(text: string): { target: S3Target } | { problem: string } {
  if (!isS3Target(text)) return { problem: 'must start with s3:// (e.g. s3://my-bucket/venue-etl)' };
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  if (bucket.includes('@') || bucket.includes(':')) {
    return {
      problem:
        'must not hold credentials or a host: write s3://bucket/prefix, put the endpoint in parquet.s3.endpoint and the keys in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or an AWS profile)',
    };
  }
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    return { problem: 'names no valid bucket: a bucket name is 3–63 lower-case letters, digits, dots or hyphens (e.g. s3://my-bucket/venue-etl)' };
  }
  if (/[?#\\]/.test(path) || [...path].some(isControlCharacter)) {
    return { problem: 'has a prefix with ?, #, \\ or control characters: use letters, digits, /, -, _ and . only' };
  }
  // One trailing slash is allowed (s3://bucket/lake/); an empty part anywhere else is a typo.
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  if (trimmed.startsWith('/') || trimmed.includes('//')) return { problem: 'has an empty part in its prefix (//): write s3://bucket/a/b' };
  const inner = trimmed === '' ? [] : trimmed.split('/');
  if (inner.some((segment) => segment === '.' || segment === '..')) return { problem: 'must not have . or .. in its prefix' };
  return { target: { bucket, prefix: inner.join('/') } };
}

/** The full key of a key relative to the target (`series_points/…` → `prefix/series_points/…`). */
export function keyUnder(target: S3Target, relativeKey: string): string {
  return target.prefix === '' ? relativeKey : `${target.prefix}/${relativeKey}`;
}

/** `s3://bucket/prefix/key`, for messages (bucket and key names are not secrets). */
export function describeKey(target: S3Target, relativeKey = ''): string {
  const key = relativeKey === '' ? target.prefix : keyUnder(target, relativeKey);
  return `${SCHEME}${target.bucket}/${key}`;
}

function isControlCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}
