import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { codeOf, EtlError } from '../errors/index.js';
import { registerSecret } from '../log/index.js';
import { lakeError } from './errors.js';
import { S3Settings, type S3SettingsInput } from './settings.js';
import { describeKey, keyUnder, type S3Target } from './target.js';

/** One object under the target, its key relative to the target's prefix. */
export interface LakeObject {
  readonly key: string;
  readonly size: number;
  /** The object's ETag without quotes ('' when the store sent none): it changes whenever the object is rewritten. */
  readonly etag: string;
}

/** Progress of a multipart upload: called after each part is stored (the object is not visible yet). */
export interface PartProgress {
  readonly key: string;
  readonly partNumber: number;
  readonly parts: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

export interface ObjectStoreOptions {
  readonly target: S3Target;
  readonly settings?: S3SettingsInput;
  readonly signal?: AbortSignal;
  readonly onPart?: (progress: PartProgress) => void | Promise<void>;
  /** Keys per list request (the store's own limit, 1,000 on S3, when not set). */
  readonly listPageSize?: number;
}

/** S3's most parts per upload and most keys per DeleteObjects request. */
const MAX_PARTS = 10_000;
const MAX_DELETE_BATCH = 1_000;
/** A manifest is small; a larger object under its name is refused rather than held in memory. */
const DEFAULT_MAX_GET_BYTES = 64 * 1024 * 1024;

/**
 * The objects under one `s3://bucket/prefix`, by keys relative to the prefix: what export needs
 * of a lake (list, write whole, read the manifest, delete). Every object is written whole: a
 * single PUT, or a multipart upload that becomes visible only when completed and is aborted when
 * any part fails, so a reader never sees a partial file. Every failure is an EtlError with a
 * VENUE_LAKE_* code and a hint; no credential appears in its message.
 */
export class ObjectStore {
  readonly target: S3Target;
  private readonly settings: S3Settings;
  private readonly client: S3Client;
  /** The SDK's per-request options: the abort signal, when there is one (absent, not undefined). */
  private readonly requestOptions: { readonly abortSignal?: AbortSignal };
  private readonly onPart: ObjectStoreOptions['onPart'];
  private readonly listPageSize: number | undefined;
  private credentialsChecked = false;

  constructor(options: ObjectStoreOptions) {
    this.target = options.target;
    this.settings = S3Settings.parse(options.settings ?? {});
    this.requestOptions = options.signal ? { abortSignal: options.signal } : {};
    this.onPart = options.onPart;
    this.listPageSize = options.listPageSize;
    const { endpoint, region, forcePathStyle, profile, accessKeyId, secretAccessKey, sessionToken } = this.settings;
    registerSecret(secretAccessKey);
    registerSecret(sessionToken);
    // The SDK's documented opt-out of its warning that releases after January 2027 need Node
    // 22: the pinned release supports Node 20 (engines >=20), and the warning would otherwise
    // land on the stderr of every command that touches the lake.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      ...(endpoint === undefined ? {} : { endpoint }),
      // The SDK refuses to start without a region; S3-compatible stores mostly ignore it.
      region: region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
      ...(profile === undefined ? {} : { profile }),
      ...(accessKeyId === undefined || secretAccessKey === undefined
        ? {}
        : { credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) } }),
      // Checksums only where the API requires them: S3-compatible stores (Swift's s3api among
      // them) refuse the SDK's default aws-chunked uploads with trailing CRC32 checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'DeleteObjectsCommand') addContentMd5(args.request);
        return next(args);
      },
      { step: 'build', name: 'venueEtlContentMd5ForDeleteObjects' },
    );
  }

  /** Every object whose relative key starts with `prefix` ('' for all), page after page. */
  async list(prefix = ''): Promise<LakeObject[]> {
    const base = keyUnder(this.target, '');
    await this.checkCredentials('list', describeKey(this.target, prefix));
    const objects: LakeObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.send('list', describeKey(this.target, prefix), () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.target.bucket,
            Prefix: keyUnder(this.target, prefix),
            ContinuationToken: token,
            MaxKeys: this.listPageSize,
          }),
          this.requestOptions,
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined || !item.Key.startsWith(base)) continue;
        objects.push({ key: item.Key.slice(base.length), size: item.Size ?? 0, etag: unquote(item.ETag) });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return objects;
  }

  /**
   * Uploads a local file as one whole object (replacing any object of that key): one PUT up to
   * `multipartThresholdBytes`, a multipart upload above it. Returns the new object's ETag (as
   * list reports it).
   */
  async putFile(localPath: string, key: string): Promise<{ etag: string }> {
    const where = describeKey(this.target, key);
    let size: number;
    try {
      size = (await stat(localPath)).size;
    } catch (error) {
      throw fileError(error, localPath, where);
    }
    await this.checkCredentials('upload of', where);
    if (size <= this.settings.multipartThresholdBytes) {
      let body: Buffer;
      try {
        body = await readFile(localPath);
      } catch (error) {
        throw fileError(error, localPath, where);
      }
      return this.putBytes(key, body);
    }
    return this.putMultipart(localPath, key, size, where);
  }

  /** Bytes held in memory (the manifest, a lease) as one whole object, by a single PUT; returns its ETag. */
  async putBytes(key: string, body: Buffer): Promise<{ etag: string }> {
    const where = describeKey(this.target, key);
    await this.checkCredentials('upload of', where);
    // A Buffer, not a stream: the SDK can then retry the request after a dropped connection.
    const answer = await this.send('upload of', where, () =>
      this.client.send(new PutObjectCommand({ Bucket: this.target.bucket, Key: keyUnder(this.target, key), Body: body }), this.requestOptions),
    );
    return { etag: unquote(answer.ETag) };
  }

  private async putMultipart(localPath: string, key: string, size: number, where: string): Promise<{ etag: string }> {
    const Bucket = this.target.bucket;
    const Key = keyUnder(this.target, key);
    const partSize = Math.max(this.settings.partSizeBytes, Math.ceil(size / MAX_PARTS));
    const parts = Math.ceil(size / partSize);
    const created = await this.send('upload of', where, () => this.client.send(new CreateMultipartUploadCommand({ Bucket, Key }), this.requestOptions));
    const UploadId = created.UploadId;
    if (UploadId === undefined) throw new EtlError('VENUE_LAKE_REQUEST', `upload of ${where}: the object store started a multipart upload without an id`);
    const file = await open(localPath, 'r').catch((error: unknown) => Promise.reject(fileError(error, localPath, where)));
    try {
      const done: { PartNumber: number; ETag: string }[] = [];
      for (let partNumber = 1; partNumber <= parts; partNumber++) {
        const offset = (partNumber - 1) * partSize;
        const length = Math.min(partSize, size - offset);
        // One part in memory at a time (16 MiB by default), read whole so a retry can resend it.
        const body = Buffer.alloc(length);
        try {
          const { bytesRead } = await file.read(body, 0, length, offset);
          if (bytesRead !== length) throw new Error(`the file shrank while it was uploaded (read ${bytesRead} of ${length} bytes at ${offset})`);
        } catch (error) {
          throw fileError(error, localPath, where);
        }
        const uploaded = await this.send('upload of', where, () =>
          this.client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: partNumber, Body: body }), this.requestOptions),
        );
        if (uploaded.ETag === undefined) throw new EtlError('VENUE_LAKE_REQUEST', `upload of ${where}: part ${partNumber} came back without an ETag`);
        done.push({ PartNumber: partNumber, ETag: uploaded.ETag });
        await this.onPart?.({ key, partNumber, parts, bytesDone: offset + length, bytesTotal: size });
      }
      const completed = await this.send('upload of', where, () =>
        this.client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: done } }), this.requestOptions),
      );
      return { etag: unquote(completed.ETag) };
    } catch (error) {
      // The stored parts are invisible but billed; abort them (a failed abort changes nothing
      // for the reader: the object was never completed). No abort signal: the abort must go out.
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw error;
    } finally {
      await file.close();
    }
  }

  /** The bytes of one object (e.g. the manifest); undefined when there is no such object. */
  async get(key: string, maxBytes = DEFAULT_MAX_GET_BYTES): Promise<Buffer | undefined> {
    const where = describeKey(this.target, key);
    await this.checkCredentials('download of', where);
    let answer: GetObjectCommandOutput;
    try {
      answer = await this.client.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: keyUnder(this.target, key) }), this.requestOptions);
    } catch (error) {
      if (error instanceof Error && error.name === 'NoSuchKey') return undefined;
      throw lakeError(error, 'download of', where, this.settings.endpoint);
    }
    if (answer.ContentLength !== undefined && answer.ContentLength > maxBytes) {
      answer.Body?.transformToWebStream()
        .cancel()
        .catch(() => undefined);
      throw new EtlError('VENUE_LAKE_REQUEST', `download of ${where}: the object is ${answer.ContentLength} bytes, more than the ${maxBytes} allowed`, {
        hint: 'Another program wrote a large object under this name: move it away.',
      });
    }
    const bytes = await this.send('download of', where, async () => (answer.Body === undefined ? new Uint8Array() : answer.Body.transformToByteArray()));
    return Buffer.from(bytes);
  }

  /** Deletes objects by relative key, 1,000 per request; keys that do not exist are no error. */
  async delete(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.checkCredentials('delete of', describeKey(this.target));
    for (let start = 0; start < keys.length; start += MAX_DELETE_BATCH) {
      const batch = keys.slice(start, start + MAX_DELETE_BATCH);
      const where = batch.length === 1 ? describeKey(this.target, batch[0]) : `${batch.length} objects under ${describeKey(this.target)}`;
      const answer = await this.send('delete of', where, () =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.target.bucket,
            Delete: { Objects: batch.map((key) => ({ Key: keyUnder(this.target, key) })), Quiet: true },
          }),
          this.requestOptions,
        ),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      const first = failed[0];
      if (first !== undefined) {
        const error = Object.assign(new Error(first.Message ?? first.Code ?? 'delete refused'), { name: first.Code ?? 'DeleteFailed' });
        throw lakeError(error, 'delete of', `${failed.length} of ${batch.length} objects (first ${first.Key ?? '?'})`, this.settings.endpoint);
      }
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }

  /**
   * Resolves the credentials once (environment, profile or `${VARIABLE}`s) and registers the
   * secret with the log's scrubber, wherever the SDK found it.
   */
  private async checkCredentials(operation: string, where: string): Promise<void> {
    if (this.credentialsChecked) return;
    const identity = await this.send(operation, where, () => this.client.config.credentials());
    registerSecret(identity.secretAccessKey);
    registerSecret(identity.sessionToken);
    this.credentialsChecked = true;
  }

  private async send<T>(operation: string, where: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw lakeError(error, operation, where, this.settings.endpoint);
    }
  }
}

/**
 * DeleteObjects with a Content-MD5 header: S3 accepts it (as it accepts the SDK's CRC32), and
 * S3-compatible stores that predate flexible checksums require it (Swift's s3api answers 400
 * "Missing required header for this request: Content-MD5" without it).
 */
function addContentMd5(request: unknown): void {
  if (isHttpRequest(request) && typeof request.body === 'string') {
    request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
  }
}

function isHttpRequest(value: unknown): value is { headers: Record<string, string>; body?: unknown } {
  return typeof value === 'object' && value !== null && 'headers' in value && typeof value.headers === 'object' && value.headers !== null;
}

/** ETags travel quoted (`"abc"`); stores differ in whether list and PUT answers keep the quotes. */
function unquote(etag: string | undefined): string {
  return (etag ?? '').replace(/^"|"$/g, '');
}

function fileError(error: unknown, localPath: string, where: string): EtlError {
  if (error instanceof EtlError) return error;
  const reason = codeOf(error) ?? (error instanceof Error ? error.message : String(error));
  return new EtlError('VENUE_LAKE_FILE', `upload of ${where}: cannot read ${localPath} (${reason})`, {
    hint: 'The local file went away or cannot be read; run the export again.',
    cause: error,
  });
}
