import { z } from 'zod';

/** S3's smallest part (every part but the last); MinIO and Swift's s3api enforce it too. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's largest single PUT. */
const MAX_SINGLE_PUT_BYTES = 5 * 1024 * 1024 * 1024;

/**
 * `parquet.s3`: how to reach the object store `parquet.dir` names (`s3://bucket/prefix`). Empty
 * for AWS itself; `endpoint` and `forcePathStyle` for S3-compatible stores (MinIO, Ceph, Swift).
 * Credentials come from the standard AWS environment variables or profile; the keys below exist
 * for `${VARIABLE}` references only (a per-tenant key pair), never for literal secrets.
 */
export const S3Settings = z
  .strictObject({
    endpoint: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:9000' })
      .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not hold credentials: put them in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY')
      .optional(),
    region: z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as us-east-1')
      .optional(),
    /** `http://host/bucket/key` instead of `http://bucket.host/key`: what most S3-compatible stores need. */
    forcePathStyle: z.boolean().optional(),
    /** An AWS shared-config profile (~/.aws/config, ~/.aws/credentials); AWS_PROFILE otherwise. */
    profile: z.string().min(1).optional(),
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    sessionToken: z.string().min(1).optional(),
    /** Files larger than this go up in parts (multipart upload); smaller ones in one PUT. */
    multipartThresholdBytes: z
      .number()
      .int()
      .min(MIN_PART_BYTES)
      .max(MAX_SINGLE_PUT_BYTES)
      .default(64 * 1024 * 1024),
    /** Size of each part; raised when a file would need more than 10,000 parts. */
    partSizeBytes: z
      .number()
      .int()
      .min(MIN_PART_BYTES)
      .max(MAX_SINGLE_PUT_BYTES)
      .default(16 * 1024 * 1024),
  })
  .refine((s) => (s.accessKeyId === undefined) === (s.secretAccessKey === undefined), {
    path: ['secretAccessKey'],
    message: 'accessKeyId and secretAccessKey go together: set both (as ${VARIABLE}s) or neither (the AWS variables or profile then supply them)',
  });
export type S3Settings = z.infer<typeof S3Settings>;
export type S3SettingsInput = z.input<typeof S3Settings>;

/** Keys of `parquet.s3` that hold secrets: written as `${VARIABLE}` or not at all. */
export const SECRET_KEYS = ['secretAccessKey', 'sessionToken'] as const;

const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Problems of the config document as written (before `${VARIABLE}` interpolation): a secret
 * written in plain text. The value is never quoted back.
 */
export function literalSecretProblems(raw: unknown): { path: string; message: string }[] {
  const s3 = child(child(raw, 'parquet'), 's3');
  const problems: { path: string; message: string }[] = [];
  for (const key of SECRET_KEYS) {
    const value = child(s3, key);
    if (typeof value === 'string' && !WHOLE_REFERENCE.test(value)) {
      problems.push({
        path: `parquet.s3.${key}`,
        message:
          key === 'secretAccessKey'
            ? 'must not be written in the file: write "${AWS_SECRET_ACCESS_KEY}" (or another variable), or leave it out and let AWS_SECRET_ACCESS_KEY or an AWS profile supply it'
            : 'must not be written in the file: write "${AWS_SESSION_TOKEN}" (or another variable), or leave it out',
      });
    }
  }
  return problems;
}

function child(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.entries(value).find(([name]) => name === key)?.[1];
}
