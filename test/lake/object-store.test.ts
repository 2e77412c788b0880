/**
 * The object store against a real S3-compatible server (Swift with s3api on loopback, started
 * by scripts/s3-server; see test/s3-server.ts): every request goes over HTTP to the real thing.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError, formatError } from '../../src/errors/index.js';
import { MIN_PART_BYTES, ObjectStore, parseS3Target, type S3SettingsInput, type S3Target } from '../../src/lake/index.js';
import { S3_SERVER_START_TIMEOUT_MS, s3Server, type S3Server } from '../s3-server.js';

let server: S3Server;
let dir: string;
const stores: ObjectStore[] = [];

beforeAll(async () => {
  server = await s3Server();
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-lake-'));
}, S3_SERVER_START_TIMEOUT_MS);

afterAll(() => {
  for (const store of stores) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh prefix per test: the bucket is shared by every test of the run. */
function freshTarget(bucket = server.bucket): S3Target {
  const parsed = parseS3Target(`s3://${bucket}/tests/${randomUUID()}`);
  if (!('target' in parsed)) throw new Error(parsed.problem);
  return parsed.target;
}

function storeAt(target: S3Target, settings: Partial<S3SettingsInput> = {}, options: Partial<ConstructorParameters<typeof ObjectStore>[0]> = {}): ObjectStore {
  const store = new ObjectStore({
    target,
    settings: {
      endpoint: server.endpoint,
      forcePathStyle: true,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      ...settings,
    },
    ...options,
  });
  stores.push(store);
  return store;
}

function localFile(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<EtlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EtlError);
  return error as EtlError;
}

describe('ObjectStore on a real S3-compatible server', () => {
  it('puts, lists, gets and deletes objects by keys relative to the prefix', async () => {
    const store = storeAt(freshTarget());
    const manifest = Buffer.from('{"files":[]}');
    const data = randomBytes(70_000);
    await store.putFile(localFile('manifest.json', manifest), '_manifest/worker-a.json');
    await store.putFile(localFile('data.parquet', data), 'series_points/stream=x/month=2026-01/data.parquet');

    const listed = await store.list();
    expect(listed.map((o) => o.key).sort()).toEqual(['_manifest/worker-a.json', 'series_points/stream=x/month=2026-01/data.parquet']);
    expect(listed.find((o) => o.key.endsWith('data.parquet'))?.size).toBe(data.length);
    expect((await store.list('series_points/')).map((o) => o.key)).toEqual(['series_points/stream=x/month=2026-01/data.parquet']);

    expect(await store.get('_manifest/worker-a.json')).toEqual(manifest);
    expect(await store.get('series_points/stream=x/month=2026-01/data.parquet')).toEqual(data);
    expect(await store.get('_manifest/absent.json')).toBeUndefined();

    // A replaced object is replaced whole.
    const newer = Buffer.from('{"files":["a"]}');
    await store.putFile(localFile('manifest2.json', newer), '_manifest/worker-a.json');
    expect(await store.get('_manifest/worker-a.json')).toEqual(newer);

    await store.delete(['series_points/stream=x/month=2026-01/data.parquet', 'never/existed.parquet']);
    expect((await store.list()).map((o) => o.key)).toEqual(['_manifest/worker-a.json']);
  });

  it('lists page after page', async () => {
    const store = storeAt(freshTarget(), {}, { listPageSize: 3 });
    const file = localFile('small.txt', Buffer.from('x'));
    // Seven objects at three keys per request: three pages, the last one short.
    const keys = Array.from({ length: 7 }, (_, i) => `many/${i}.txt`);
    for (const key of keys) await store.putFile(file, key);
    await store.putFile(file, 'other/0.txt');
    expect((await store.list('many/')).map((o) => o.key)).toEqual(keys);
    await store.delete(keys);
    expect(await store.list('many/')).toEqual([]);
  });

  it('uploads a file above the threshold in parts, visible whole only once completed', async () => {
    const target = freshTarget();
    const size = 2 * MIN_PART_BYTES + 12_345;
    const bytes = randomBytes(size);
    const reader = storeAt(target);
    const seen: { partNumber: number; parts: number; visible: boolean; listed: number }[] = [];
    const store = storeAt(
      target,
      { multipartThresholdBytes: MIN_PART_BYTES, partSizeBytes: MIN_PART_BYTES },
      {
        onPart: async ({ partNumber, parts }) => {
          seen.push({ partNumber, parts, visible: (await reader.get('big.parquet')) !== undefined, listed: (await reader.list()).length });
        },
      },
    );
    const { etag } = await store.putFile(localFile('big.parquet', bytes), 'big.parquet');

    expect(seen).toEqual([1, 2, 3].map((partNumber) => ({ partNumber, parts: 3, visible: false, listed: 0 })));
    // Compared by digest: a deep equality of two 10 MiB buffers takes vitest minutes.
    expect(sha256(await reader.get('big.parquet'))).toBe(sha256(bytes));
    // The ETag the upload returns is the one a listing shows (the export's version of a file).
    expect(await reader.list()).toEqual([{ key: 'big.parquet', size, etag }]);
    expect(etag).toMatch(/-3$/);
  });

  it('aborts a multipart upload that fails: no object and no pending upload are left', async () => {
    const target = freshTarget();
    const controller = new AbortController();
    const store = storeAt(
      target,
      { multipartThresholdBytes: MIN_PART_BYTES, partSizeBytes: MIN_PART_BYTES },
      { signal: controller.signal, onPart: ({ partNumber }) => (partNumber === 1 ? controller.abort() : undefined) },
    );
    const error = await failure(store.putFile(localFile('interrupted.parquet', randomBytes(2 * MIN_PART_BYTES + 1)), 'interrupted.parquet'));
    expect(error.code).toBe('VENUE_LAKE_ABORTED');

    const reader = storeAt(target);
    expect(await reader.get('interrupted.parquet')).toBeUndefined();
    expect(await reader.list()).toEqual([]);
    const raw = new S3Client({
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    try {
      const pending = await raw.send(new ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix: `${target.prefix}/` }));
      expect(pending.Uploads ?? []).toEqual([]);
    } finally {
      raw.destroy();
    }
  });

  it('takes the credentials from the standard AWS environment variables', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = server.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = server.secretAccessKey;
    try {
      const store = storeAt(freshTarget(), { accessKeyId: undefined, secretAccessKey: undefined });
      await store.putFile(localFile('env.txt', Buffer.from('env')), 'env.txt');
      expect(await store.get('env.txt')).toEqual(Buffer.from('env'));
    } finally {
      restore('AWS_ACCESS_KEY_ID', saved.id);
      restore('AWS_SECRET_ACCESS_KEY', saved.secret);
    }
  });

  it('maps a wrong secret to VENUE_LAKE_ACCESS_DENIED without the secret in the message', async () => {
    const wrongSecret = `wrong-${randomUUID()}`;
    const store = storeAt(freshTarget(), { secretAccessKey: wrongSecret });
    const file = localFile('denied.txt', Buffer.from('x'));
    for (const attempt of [() => store.list(), () => store.putFile(file, 'denied.txt'), () => store.get('x'), () => store.delete(['x'])]) {
      const error = await failure(attempt());
      expect(error.code).toBe('VENUE_LAKE_ACCESS_DENIED');
      expect(error.hint).toMatch(/AWS_SECRET_ACCESS_KEY/);
      const printed = formatError(error);
      expect(printed).not.toContain(wrongSecret);
      expect(printed).not.toContain(server.secretAccessKey);
    }
  });

  it('maps an unknown bucket to VENUE_LAKE_NO_SUCH_BUCKET', async () => {
    const store = storeAt(freshTarget(`no-such-bucket-${randomUUID().slice(0, 8)}`));
    const error = await failure(store.list());
    expect(error.code).toBe('VENUE_LAKE_NO_SUCH_BUCKET');
    expect(error.message).toContain('s3://no-such-bucket-');
    expect(error.hint).toMatch(/bucket/);
    expect((await failure(store.putFile(localFile('nb.txt', Buffer.from('x')), 'nb.txt'))).code).toBe('VENUE_LAKE_NO_SUCH_BUCKET');
  });

  it('maps a closed port to VENUE_LAKE_UNREACHABLE naming the endpoint', async () => {
    const store = storeAt(freshTarget(), { endpoint: 'http://127.0.0.1:1' });
    const error = await failure(store.list());
    expect(error.code).toBe('VENUE_LAKE_UNREACHABLE');
    expect(error.message).toContain('http://127.0.0.1:1');
    expect(error.hint).toMatch(/parquet\.s3\.endpoint/);
  });
});

function sha256(bytes: Buffer | undefined): string {
  return bytes === undefined ? 'absent' : createHash('sha256').update(bytes).digest('hex');
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
