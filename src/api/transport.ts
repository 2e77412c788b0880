import { Agent } from 'undici';
import { codeOf } from '../errors/index.js';
import { startDeadline } from './deadline.js';
import type { ContentCoding } from './content-encoding.js';
import { ApiError, ApiErrorCode, isApiError } from './errors.js';
import { readBody } from './read-body.js';
import { abortedError } from './retry-policy.js';

export interface TransportOptions {
  /** Sockets per origin; the throttle never runs more requests than this. */
  readonly connections: number;
  /** Deadline of one attempt, from sending the request to the last byte of the body. */
  readonly timeoutMs: number;
  /** Sent on every request; built once. */
  readonly headers: Readonly<Record<string, string>>;
  /** api.maxResponseBytes: a larger successful answer fails; an error answer is cut there. */
  readonly maxResponseBytes: number;
}

export interface TransportResponse {
  readonly status: number;
  readonly retryAfter: string | string[] | undefined;
  /** Every header of the answer (the rate-limit ones are read from them). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The `Date` header: the server's clock when it answered. */
  readonly date: string | undefined;
  /** Where a 3xx points (redirects are not followed). */
  readonly location: string | undefined;
  /** The `Content-Type` header, as sent. */
  readonly contentType: string | undefined;
  readonly text: string;
  /** Body bytes as sent (compressed, when it was). */
  readonly bytes: number;
  /** The Content-Encoding the body was decoded from. */
  readonly coding: ContentCoding | undefined;
}

/** One GET attempt, body read to the end; failures become transient or aborted `ApiError`s. */
export interface Transport {
  get(url: URL, request: string, signal?: AbortSignal): Promise<TransportResponse>;
  close(): Promise<void>;
}

/** undici's and Node's own codes for a deadline that passed: mapped to `VENUE_API_TIMEOUT`. */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function createTransport(options: TransportOptions): Transport {
  const { timeoutMs, headers, maxResponseBytes } = options;
  // undici's own timeouts default to 300 s; the per-attempt deadline below is the real bound,
  // these only make a stuck socket fail with a precise error code.
  const agent = new Agent({
    connections: options.connections,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000) },
  });

  return {
    async get(url, request, callerSignal) {
      const deadline = startDeadline(timeoutMs, callerSignal);
      let phase: Phase = 'headers';
      try {
        const response = await agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers, signal: deadline.signal });
        phase = 'body';
        // The signal stays attached while the body streams, so the deadline covers reading it.
        const status = response.statusCode;
        const truncate = status < 200 || status >= 300;
        const maxBytes = truncate ? Math.min(maxResponseBytes, ERROR_BODY_BYTES) : maxResponseBytes;
        const body = await readBody(response.body, response.headers, request, { maxBytes, truncate });
        return {
          status,
          retryAfter: response.headers['retry-after'],
          headers: response.headers,
          date: singleHeader(response.headers.date),
          location: singleHeader(response.headers.location),
          contentType: singleHeader(response.headers['content-type']),
          text: body.text,
          bytes: body.bytes,
          coding: body.coding,
        };
      } catch (error) {
        throw transportError(error, phase, request, callerSignal, deadline.expired, timeoutMs, url.origin);
      } finally {
        deadline.dispose();
      }
    },
    close: () => agent.close(),
  };
}

/** An error answer's body only adds detail to its status: its first 64 KiB are plenty. */
const ERROR_BODY_BYTES = 65_536;

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type Phase = 'headers' | 'body';

function transportError(
  error: unknown,
  phase: Phase,
  request: string,
  callerSignal: AbortSignal | undefined,
  expired: boolean,
  timeoutMs: number,
  origin: string,
): ApiError {
  if (callerSignal?.aborted) return abortedError(request, callerSignal.reason);
  // Already classified while reading the body (too large, encoding).
  if (isApiError(error) && !expired) return error;
  const code = codeOf(error);
  if (expired || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new ApiError(ApiErrorCode.timeout, `${request} did not complete within ${timeoutMs} ms (api.timeoutMs)`, {
      request,
      cause: error,
    });
  }
  if (phase === 'body') {
    // The connection broke after the headers: less body than Content-Length promised.
    return new ApiError(ApiErrorCode.badBody, `${request} returned a truncated body (${code ?? 'connection closed'})`, {
      request,
      cause: error,
    });
  }
  if (code === 'ECONNREFUSED') return nothingListening(request, origin, error);
  // Resets, refusals, sockets closed before the headers, DNS hiccups: all worth another attempt.
  const reason = error instanceof Error ? error.message : String(error);
  const text = code === undefined || reason.includes(code) ? reason : `${code} ${reason}`;
  return new ApiError(ApiErrorCode.network, `${request} failed: ${text}`, {
    request,
    cause: error,
    details: code ? { errorCode: code } : undefined,
  });
}

/**
 * The port answered "connection refused": no server there at all, which a wrong api.baseUrl
 * causes far more often than an API restarting. Still transient for the runs (a restart takes
 * seconds); the access check gives up at once (see RequestContext.failFastOnRefused).
 * `origin` never carries credentials (URL.origin has no user or password).
 */
function nothingListening(request: string, origin: string, cause: unknown): ApiError {
  return new ApiError(ApiErrorCode.network, `${request} failed: nothing is listening at ${origin} (ECONNREFUSED: connection refused)`, {
    request,
    cause,
    hint: 'check api.baseUrl (host and port) and that the API, or `venue-etl simulate`, is running there',
    details: { errorCode: 'ECONNREFUSED', refused: true },
  });
}

/** A refused connection (see nothingListening). */
export function isConnectionRefused(error: unknown): boolean {
  return isApiError(error) && error.details.refused === true;
}
