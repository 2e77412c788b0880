import type { Readable } from 'node:stream';
import { codeOf } from '../errors/index.js';
import { brokenEncoding, contentCoding, decodeBody, looksGzipped, unlabelledGzip, type ContentCoding } from './content-encoding.js';
import { ApiError, ApiErrorCode } from './errors.js';

/** Response headers as undici gives them (lower-case names). */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface BodyLimits {
  /** api.maxResponseBytes: the bound on the body as sent and as decoded. */
  readonly maxBytes: number;
  /**
   * Keep the start and stop quietly at `maxBytes` instead of failing: for error answers, whose
   * status decides what happens and whose body only adds detail.
   */
  readonly truncate: boolean;
}

export interface BodyText {
  readonly text: string;
  /** Bytes as sent (compressed, when it was). */
  readonly bytes: number;
  readonly coding: ContentCoding | undefined;
}

/**
 * Reads a response body as a stream, abandoning it (the connection closed) as soon as it passes
 * the limit, then decodes it (gzip, deflate) up to the same limit: a 1.1 GB body once took
 * 2.3 GB of memory to fail, and 64 KiB of gzip decode to 64 MiB. Errors of the stream itself
 * (reset, deadline) are thrown as they come, for the transport to classify.
 */
export async function readBody(body: Readable, headers: ResponseHeaders, request: string, limits: BodyLimits): Promise<BodyText> {
  const { maxBytes, truncate } = limits;
  let complete = false;
  try {
    const coding = contentCoding(headers['content-encoding'], request);
    const declared = Number(headers['content-length']);
    if (!truncate && declared > maxBytes) throw tooLarge(request, maxBytes, { declared });
    const sent = await collect(body, maxBytes);
    complete = !sent.cut;
    if (sent.cut && !truncate) throw tooLarge(request, maxBytes, {});
    if (coding === undefined && looksGzipped(sent.bytes)) throw unlabelledGzip(request);
    const decoded = coding === undefined ? sent.bytes : decode(sent.bytes, coding, request, limits);
    return { text: new TextDecoder().decode(decoded), bytes: sent.bytes.byteLength, coding };
  } finally {
    // Not read to the end: close the connection instead of draining what is left. Destroying
    // makes the body emit an abort error that nobody waits for any more.
    if (!complete) body.on('error', ignore).destroy();
  }
}

function ignore(): void {}

/** The body's bytes up to `maxBytes`; `cut` when there were more (reading stopped there). */
function collect(body: Readable, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (cut: boolean): void => {
      body.off('data', onData).off('end', onEnd).off('error', onError);
      resolve({ bytes: Buffer.concat(chunks, size), cut });
    };
    const onData = (chunk: Buffer): void => {
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    };
    const onEnd = (): void => finish(false);
    const onError = (error: unknown): void => {
      body.off('data', onData).off('end', onEnd);
      reject(error);
    };
    body.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

function decode(bytes: Buffer, coding: ContentCoding, request: string, limits: BodyLimits): Buffer {
  try {
    return decodeBody(bytes, coding, limits.maxBytes);
  } catch (error) {
    // An error answer cut at the limit cannot be decoded whole; its status says enough.
    if (limits.truncate) return Buffer.alloc(0);
    if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(request, limits.maxBytes, { decodedFrom: coding, sent: bytes.byteLength });
    if (codeOf(error)?.startsWith('Z_')) throw brokenEncoding(request, coding, error);
    throw error;
  }
}

interface TooLargeFacts {
  /** Content-Length announced beyond the limit: nothing was read. */
  readonly declared?: number;
  /** The limit was passed while decoding this coding, from `sent` bytes as sent. */
  readonly decodedFrom?: ContentCoding;
  readonly sent?: number;
}

function tooLarge(request: string, maxBytes: number, facts: TooLargeFacts): ApiError {
  const how =
    facts.declared !== undefined
      ? ` (Content-Length: ${facts.declared}); nothing was read`
      : facts.decodedFrom !== undefined
        ? ` once decoded from ${facts.decodedFrom} (${formatBytes(facts.sent ?? 0)} as sent); decoding stopped there`
        : '; reading stopped there';
  return new ApiError(ApiErrorCode.tooLarge, `${request} answered with more than ${formatBytes(maxBytes)} (api.maxResponseBytes)${how}`, {
    request,
    hint: `Raise api.maxResponseBytes (now ${maxBytes}) if answers this large are expected; otherwise ask for less at a time (a smaller api.pageSize or sync.windowDays).`,
    details: {
      maxResponseBytes: maxBytes,
      ...(facts.declared === undefined ? {} : { contentLength: facts.declared }),
      ...(facts.decodedFrom === undefined ? {} : { contentEncoding: facts.decodedFrom, bytesSent: facts.sent }),
    },
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] = bytes < 1024 ** 2 ? [bytes / 1024, 'KiB'] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, 'MiB'] : [bytes / 1024 ** 3, 'GiB'];
  return `${Number(value.toFixed(1))} ${unit}`;
}
