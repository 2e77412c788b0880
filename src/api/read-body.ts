import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { brokenEncoding, contentCoding, decoderFor, looksGzipped, unlabelledGzip, type ContentCoding } from './content-encoding.js';
import { ApiError, ApiErrorCode } from './errors.js';

/** Response headers as undici gives them (lower-case names). */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface BodyLimits {
  /** api.maxResponseBytes: the bound on the body as sent and as decoded. */
  readonly maxBytes: number;
  /**
   * Stop quietly at `maxBytes` and keep the start instead of failing: for error answers, whose
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
 * Reads a response body as a stream: decoded (gzip, deflate), counted as sent and as decoded, and
 * abandoned (the connection closed) as soon as either count passes the limit — a 1.1 GB body
 * once took 3.4 GB of memory to fail, and a 1 MB gzip bomb decodes to 1 GB. Errors of the body
 * itself (reset, deadline) are thrown as they come, for the transport to classify.
 */
export async function readBody(body: Readable, headers: ResponseHeaders, request: string, limits: BodyLimits): Promise<BodyText> {
  const text = new TextSink(limits.maxBytes);
  let sent = 0;
  let coding: ContentCoding | undefined;
  let complete = false;
  try {
    coding = contentCoding(headers['content-encoding'], request);
    const declared = Number(headers['content-length']);
    if (!limits.truncate && declared > limits.maxBytes) throw tooLarge(request, limits.maxBytes, { declared });

    const chunks: AsyncIterator<Buffer> = body[Symbol.asyncIterator]();
    const first = await chunks.next();
    const head: Buffer | undefined = first.done ? undefined : first.value;
    async function* asSent(): AsyncGenerator<Buffer> {
      for (let next = first; !next.done; next = await chunks.next()) {
        sent += next.value.byteLength;
        if (sent > limits.maxBytes) throw new LimitReached('sent');
        yield next.value;
      }
    }

    if (coding === undefined) {
      if (looksGzipped(head)) throw unlabelledGzip(request);
      for await (const chunk of asSent()) text.add(chunk);
    } else {
      const decoder = decoderFor(coding, head?.[0]);
      await pipeline(asSent(), decoder, async (decoded: AsyncIterable<Buffer>) => {
        for await (const chunk of decoded) text.add(chunk);
      });
    }
    complete = true;
  } catch (error) {
    if (error instanceof LimitReached) {
      if (limits.truncate) return { text: text.finish(), bytes: sent, coding };
      throw tooLarge(request, limits.maxBytes, error.what === 'decoded' && coding ? { decodedFrom: coding, sent } : {});
    }
    if (coding !== undefined && isZlibError(error)) throw brokenEncoding(request, coding, error);
    throw error;
  } finally {
    // Not read to the end: close the connection instead of draining what is left. Destroying
    // makes the body emit an abort error that nobody waits for any more.
    if (!complete) body.on('error', ignore).destroy();
  }
  return { text: text.finish(), bytes: sent, coding };
}

function ignore(): void {}

/** Thrown inside the read to stop it at the limit; never leaves `readBody`. */
class LimitReached extends Error {
  constructor(readonly what: 'sent' | 'decoded') {
    super(`body limit reached (${what})`);
  }
}

/**
 * UTF-8 text built chunk by chunk (a character split between chunks is kept whole), counting the
 * decoded bytes against the limit.
 */
class TextSink {
  private readonly decoder = new TextDecoder();
  private readonly parts: string[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.maxBytes) throw new LimitReached('decoded');
    this.parts.push(this.decoder.decode(chunk, { stream: true }));
  }

  finish(): string {
    this.parts.push(this.decoder.decode());
    return this.parts.join('');
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

interface TooLargeFacts {
  /** Content-Length announced beyond the limit: nothing was read. */
  readonly declared?: number;
  /** The limit was passed while decoding this coding, after `sent` bytes as sent. */
  readonly decodedFrom?: ContentCoding;
  readonly sent?: number;
}

function tooLarge(request: string, maxBytes: number, facts: TooLargeFacts): ApiError {
  const how =
    facts.declared !== undefined
      ? ` (Content-Length: ${facts.declared}); nothing was read`
      : facts.decodedFrom !== undefined
        ? ` once decoded from ${facts.decodedFrom} (${formatBytes(facts.sent ?? 0)} as sent); reading stopped there`
        : '; reading stopped there';
  return new ApiError(ApiErrorCode.tooLarge, `${request} answered with more than ${formatBytes(maxBytes)} (api.maxResponseBytes)${how}`, {
    retriable: false,
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
