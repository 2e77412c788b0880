import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { ApiError, ApiErrorCode } from './errors.js';

/**
 * The codings venue-etl asks for and decodes. `br` is not asked for: on the simulator's answers
 * brotli (quality 5) saves 16–21 % of the gzip size — 76 bytes on a 31-day history (2,256 bytes
 * raw, 454 gzip, 378 br), fewer than the request's own headers — and decodes no faster, so one
 * decoder fewer is worth more than the bytes.
 */
const ACCEPTED_CODINGS = ['gzip', 'deflate'] as const;
export type ContentCoding = (typeof ACCEPTED_CODINGS)[number];

/** The `Accept-Encoding` header sent with every request. */
export const ACCEPT_ENCODING = ACCEPTED_CODINGS.join(', ');

/**
 * The coding of a `Content-Encoding` header: undefined for none or `identity`. One that was not
 * asked for, or more than one stacked (none of the APIs we know stacks them, and every layer is
 * one more place for a bomb), is refused, naming what was sent.
 */
export function contentCoding(header: string | string[] | undefined, request: string): ContentCoding | undefined {
  const text = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  const codings = text
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return undefined;
  // RFC 9110 §8.4.1.3: a recipient should treat x-gzip as gzip.
  const [only] = codings.map((coding) => (coding === 'x-gzip' ? 'gzip' : coding));
  if (codings.length === 1 && isAccepted(only)) return only;
  throw unsupportedEncoding(request, text);
}

function isAccepted(coding: string | undefined): coding is ContentCoding {
  return ACCEPTED_CODINGS.some((accepted) => accepted === coding);
}

/**
 * The body decoded, at most `maxBytes` of it: zlib stops there (ERR_BUFFER_TOO_LARGE), so a bomb
 * costs the limit, not what it would expand to (1 MB of gzip that decodes to 1 GiB stops after
 * 32 MiB and ~40 ms). Decoded in one synchronous call, like the JSON.parse after it: the API's
 * answers are small, and a request for a 2 KB gzipped history cost 0.25 ms of CPU with a zlib
 * stream per answer, 0.14 ms this way (best of six runs of 5,000 requests). `deflate` means the
 * zlib format (RFC 9110 §8.4.1.2), but some servers send raw deflate; the first byte tells them
 * apart (a zlib header's low nibble is 8, the deflate method), as browsers and undici's fetch do.
 */
export function decodeBody(body: Buffer, coding: ContentCoding, maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes };
  if (coding === 'gzip') return gunzipSync(body, options);
  const first = body[0];
  return first === undefined || (first & 0x0f) === 0x08 ? inflateSync(body, options) : inflateRawSync(body, options);
}

/** A gzip stream starts with 1f 8b; a JSON text never starts with 0x1f. */
export function looksGzipped(head: Uint8Array | undefined): boolean {
  return head !== undefined && head[0] === 0x1f && head[1] === 0x8b;
}

function unsupportedEncoding(request: string, sent: string): ApiError {
  return new ApiError(
    ApiErrorCode.contentEncoding,
    `${request} answered with Content-Encoding "${sent}", which venue-etl did not ask for (it asks for ${ACCEPT_ENCODING}) and does not decode`,
    {
      request,
      hint: 'The API or a proxy in front of it ignores Accept-Encoding; make it answer in gzip, deflate or uncompressed.',
      details: { contentEncoding: sent },
    },
  );
}

export function unlabelledGzip(request: string): ApiError {
  return new ApiError(ApiErrorCode.contentEncoding, `${request} answered with a gzip-compressed body that Content-Encoding does not announce`, {
    request,
    hint: 'The API or a proxy in front of it compresses without saying so (Content-Encoding: gzip is missing); fix the server or the proxy.',
    details: { contentEncoding: 'gzip (unlabelled)' },
  });
}

/** A body whose compressed stream is corrupt or cut short: another attempt may get it whole. */
export function brokenEncoding(request: string, coding: ContentCoding, cause: unknown): ApiError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(ApiErrorCode.badBody, `${request} returned a broken ${coding} body (${reason})`, {
    request,
    cause,
    details: { contentEncoding: coding },
  });
}
