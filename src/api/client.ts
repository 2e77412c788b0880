import { registerSecret, type Logger } from '../log/index.js';
import { ACCEPT_ENCODING, type ContentCoding } from './content-encoding.js';
import { pageInsteadOfJson } from './content-type.js';
import { ApiError, ApiErrorCode, isApiError } from './errors.js';
import { tokenRedactor } from './display-url.js';
import { expectList, toJsonApiDocument, type JsonApiDocument, type JsonApiListDocument } from './jsonapi.js';
import { assertSameOrigin, DEFAULT_MAX_PAGES, followPages, pathOf } from './paginate.js';
import { redirectError } from './redirect.js';
import { readRateLimitHeaders } from './rate-limit-headers.js';
import { abortedError, parseRetryAfter, withRetries, type RetryPolicy } from './retry-policy.js';
import { StatsRecorder, type ClientStats } from './stats.js';
import { statusError } from './status-error.js';
import { Throttle, type ThrottleSlot } from './throttle.js';
import { createTransport, isConnectionRefused, type Transport } from './transport.js';
import { userAgent } from './user-agent.js';

export interface ApiClientOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** Ceiling of requests in flight (api.concurrency); the client finds how many help (docs/rate-limits.md). */
  readonly concurrency: number;
  /** Deadline of one attempt, body included. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterMs: number;
  readonly maxRequestsPerSecond?: number;
  readonly logger: Logger;
  /** First backoff step (default 500 ms); doubles per attempt with full jitter. */
  readonly retryBaseMs?: number;
  /** Backoff cap (default 30 s); Retry-After may ask for longer and gets it. */
  readonly retryMaxBackoffMs?: number;
  /** Pages one `paginate` call may fetch (api.maxPages, default 1,000). */
  readonly maxPages?: number;
  /** Largest body read, as sent and as decoded (api.maxResponseBytes, default 32 MiB). */
  readonly maxResponseBytes?: number;
}

export interface RequestContext {
  /** Stream name for the per-stream counts and log lines. */
  readonly stream?: string;
  readonly signal?: AbortSignal;
  /** Called with the `Date` header of the successful answer (the API's clock), or undefined without one. */
  readonly onResponseDate?: (date: string | undefined) => void;
  /** A refused connection fails at once instead of after every retry (nothing is listening). */
  readonly failFastOnRefused?: boolean;
}

export interface PaginateContext extends RequestContext {
  readonly pageSize: number;
}

export interface ApiClient {
  /** api.baseUrl as given (callers size URLs with it). */
  readonly baseUrl: string;
  /** GET a path below baseUrl (e.g. `/analytics/venue-devices-history/<id>/?from=…&to=…`) or an absolute URL of the same origin; returns the validated JSON:API document. */
  getDocument(pathOrUrl: string, context?: RequestContext): Promise<JsonApiDocument>;
  /** Follows links.next from the first page (page[number]=1&page[size]=pageSize added to the path) to the end. */
  paginate(path: string, context: PaginateContext): AsyncGenerator<JsonApiListDocument>;
  readonly stats: ClientStats;
  /**
   * The API's rate limit an earlier run found (requests/s, `stats.rateLimit` then): requests start
   * paced just under it instead of ramping into it. Ignored once this client has met a 429.
   */
  rememberRateLimit(requestsPerSecond: number): void;
  /** Request counts in total at info, per stream at debug. */
  logSummary(logger?: Logger): void;
  close(): Promise<void>;
}

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';
export const DEFAULT_RETRY_BASE_MS = 500;
export const DEFAULT_RETRY_MAX_BACKOFF_MS = 30_000;
/**
 * The largest answer a valid config can ask for is a history over the longest window
 * (sync.windowDays 3,660): 246 KB for the simulator's two-series users history, about twice that
 * for the four device series, ~11 MB if the API sent them hourly; a page of 1,000 accounts or
 * roles is under 1 MB. 32 MiB leaves three times that, and bounds what one answer in flight can
 * cost (text plus parsed JSON, several times its size) when api.concurrency answers arrive at once.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 33_554_432;
/** Waits at least this long are logged at info: a quiet client must not look hung. */
const LONG_WAIT_MS = 5_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { logger, token, timeoutMs } = options;
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  registerSecret(token);
  // Server text (error details, JSON parse messages) can echo the token it refused.
  const redact = tokenRedactor(token);

  const transport = createTransport({
    connections: options.concurrency,
    timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    headers: { authorization: `Bearer ${token}`, accept: JSON_API_MEDIA_TYPE, 'accept-encoding': ACCEPT_ENCODING, 'user-agent': userAgent() },
  });
  const throttle = new Throttle({
    concurrency: options.concurrency,
    maxRequestsPerSecond: options.maxRequestsPerSecond,
    onThrottled: (rate) => logger.info({ requestsPerSecond: Math.round(rate * 10) / 10 }, 'api throttled (429): request rate lowered'),
  });
  const stats = new StatsRecorder(throttle);
  const fetchBody = createFetcher({ options, transport, throttle, stats, origin, redact });
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;

  function resolve(pathOrUrl: string): URL {
    const absolute = /^[a-z][a-z\d+.-]*:/i.test(pathOrUrl);
    const url = absolute ? new URL(pathOrUrl) : new URL(`${basePath}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`, origin);
    assertSameOrigin(url, origin, `the URL ${absolute ? pathOrUrl : pathOf(url)}`);
    return url;
  }

  return {
    baseUrl: options.baseUrl,
    async getDocument(pathOrUrl, context = {}) {
      const url = resolve(pathOrUrl);
      const document = toJsonApiDocument(await fetchBody(url, context), `GET ${pathOf(url)}`);
      stats.add(context.stream, 'pages');
      return document;
    },
    async *paginate(path, context) {
      const first = firstPageUrl(resolve(path), context.pageSize);
      const fetchPage = async (url: URL): Promise<JsonApiListDocument> => {
        const request = `GET ${pathOf(url)}`;
        const page = expectList(toJsonApiDocument(await fetchBody(url, context), request), request);
        stats.add(context.stream, 'pages');
        return page;
      };
      yield* followPages(first, fetchPage, { origin, maxPages, redact, ...(context.stream === undefined ? {} : { stream: context.stream }) });
    },
    stats: stats.view,
    rememberRateLimit: (requestsPerSecond) => throttle.remember(requestsPerSecond),
    logSummary: (target = logger) => stats.logSummary(target),
    close: () => transport.close(),
  };
}

/** What one client's requests go through: shared by every call it makes. */
interface FetchParts {
  readonly options: ApiClientOptions;
  readonly transport: Transport;
  readonly throttle: Throttle;
  readonly stats: StatsRecorder;
  readonly origin: string;
  readonly redact: (text: string) => string;
}

/**
 * The client's one way to fetch a URL: retries around attempts, each inside a throttle slot,
 * and a token once refused never sent again. Returns the parsed body.
 */
function createFetcher({ options, transport, throttle, stats, origin, redact }: FetchParts): (url: URL, context: RequestContext) => Promise<unknown> {
  const { logger } = options;
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries,
    baseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxBackoffMs: options.retryMaxBackoffMs ?? DEFAULT_RETRY_MAX_BACKOFF_MS,
    maxRetryAfterMs: options.maxRetryAfterMs,
  };
  // A refused token stays refused for the whole run: after the first 401/403, later calls fail
  // without sending, so a run over hundreds of slices does not hammer the API with a bad token.
  let refusedToken: ApiError | undefined;
  const parseJson = (text: string, request: string, status: number, coding: ContentCoding | undefined): unknown =>
    parseJsonBody(text, request, status, coding, redact);

  /** One attempt, inside a throttle slot: send, read, and turn anything but a 2xx with JSON into an error. */
  async function attempt(url: URL, request: string, attemptNumber: number, slot: ThrottleSlot, context: RequestContext): Promise<unknown> {
    const { stream, signal } = context;
    const startedAt = performance.now();
    stats.requestStarted(stream, startedAt);
    try {
      const response = await transport.get(url, request, signal);
      stats.add(stream, 'bytes', response.bytes);
      logAttempt(url, attemptNumber, startedAt, stream, response.status);
      if (response.status >= 200 && response.status < 300) {
        stats.add(stream, 'ok');
        slot.succeeded(readRateLimitHeaders(response.headers));
        context.onResponseDate?.(response.date);
        const page = pageInsteadOfJson(response.contentType, response.text, request, response.status, redact);
        if (page) throw page;
        return parseJson(response.text, request, response.status, response.coding);
      }
      if (response.status >= 300 && response.status < 400) throw redirectError(response.status, response.location, url, origin, request, redact);
      const retryAfterMs = parseRetryAfter(response.retryAfter);
      if (response.status === 429) {
        slot.throttled(readRateLimitHeaders(response.headers));
        stats.add(stream, 'throttled');
      } else if (response.status >= 500) stats.add(stream, 'serverErrors');
      throw statusError({ status: response.status, body: parseErrorBody(response.text), retryAfterMs }, request, redact);
    } catch (error) {
      if (isApiError(error) && error.status === undefined) logAttempt(url, attemptNumber, startedAt, stream, undefined, error.code);
      throw error;
    } finally {
      stats.responseEnded(stream, performance.now());
    }
  }

  function logAttempt(url: URL, attemptNumber: number, startedAt: number, stream: string | undefined, status?: number, code?: string): void {
    if (!logger.isLevelEnabled('debug')) return;
    const ms = Math.round(performance.now() - startedAt);
    logger.debug({ method: 'GET', url: pathOf(url), status, error: code, attempt: attemptNumber, ms, stream }, 'api request');
  }

  /** Retries, counts and abort handling around `attempt`; returns the parsed body. */
  async function fetchBody(url: URL, context: RequestContext): Promise<unknown> {
    const { stream, signal } = context;
    const request = `GET ${pathOf(url)}`;
    if (refusedToken) {
      stats.add(stream, 'failures');
      const { message, status, hint } = refusedToken;
      throw new ApiError(ApiErrorCode.auth, message, { request, status, hint, cause: refusedToken });
    }
    try {
      return await withRetries(policy, request, (attemptNumber) => throttle.run((slot) => attempt(url, request, attemptNumber, slot, context), signal), {
        signal,
        ...(context.failFastOnRefused ? { giveUp: isConnectionRefused } : {}),
        onRetry: (error, attemptNumber, delayMs) => {
          stats.add(stream, 'retries');
          const level = delayMs >= LONG_WAIT_MS ? 'info' : 'debug';
          logger[level]({ url: pathOf(url), attempt: attemptNumber, delayMs, code: error.code, status: error.status, stream }, 'api retry');
        },
      });
    } catch (error) {
      // A run told to stop abandons its calls: counted apart, so a Ctrl-C shows no failures.
      stats.add(stream, signal?.aborted ? 'aborted' : 'failures');
      if (isApiError(error) && error.code === ApiErrorCode.auth) refusedToken ??= error;
      // Aborted while waiting for a slot or a token: the signal's own error, made a coded one.
      if (!isApiError(error) && signal?.aborted) throw abortedError(request, signal.reason);
      throw error;
    }
  }

  return fetchBody;
}

/** Brackets stay literal: the URL parser keeps them in queries, and the API documents them so. */
function firstPageUrl(url: URL, pageSize: number): URL {
  if (url.searchParams.has('page[number]') || url.searchParams.has('page[size]')) return url;
  const first = new URL(url);
  first.search = `${url.search ? `${url.search}&` : '?'}page[number]=1&page[size]=${pageSize}`;
  return first;
}

/**
 * V8 quotes the start of the text it could not parse (`Unexpected token 'B', "Bearer abc"... is
 * not valid JSON`): a server echoing the Authorization header would show the token's first
 * characters, which `redact` cannot recognize. The position and the offending character stay.
 */
function withoutExcerpts(message: string): string {
  // Greedy: the excerpt is not escaped, so it may hold quotes of its own.
  return message.replace(/(?:\.\.\.)?".*"(?:\.\.\.)?/s, '…');
}

/** The body of an error response, when it is JSON (JSON:API `errors` give the detail). */
function parseErrorBody(text: string): unknown {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 2xx answer's body as JSON; malformed JSON is a bad-body error (its message redacted). */
function parseJsonBody(text: string, request: string, status: number, coding: ContentCoding | undefined, redact: (text: string) => string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const body = coding ? ` (a ${coding}-encoded body, decoded)` : '';
    throw new ApiError(ApiErrorCode.badBody, `${request} returned malformed JSON${body}: ${withoutExcerpts(redact((error as Error).message)).slice(0, 200)}`, {
      status,
      request,
      ...(coding ? { details: { contentEncoding: coding } } : {}),
    });
  }
}
