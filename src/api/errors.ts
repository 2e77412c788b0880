import { EtlError, ERROR_RULES, type ErrorCode } from '../errors/index.js';

/**
 * Stable codes of the errors the API client raises. Callers branch on the code, never on the
 * message; what each code means for retries and the run is its row in `ERROR_RULES`.
 */
export const ApiErrorCode = {
  /** 401/403: the token is wrong or lacks rights. Every further request fails the same way. */
  auth: 'VENUE_API_AUTH',
  /** 404: the venue, project or account does not exist or is not visible to the token. */
  notFound: 'VENUE_API_NOT_FOUND',
  /** 400/422: the API rejected the request itself (filter or date values). */
  badRequest: 'VENUE_API_BAD_REQUEST',
  /** Any other status the client does not expect (405, 409, 501…). */
  unexpectedStatus: 'VENUE_API_HTTP',
  /** A 3xx, with or without Location: redirects are not followed (the token stays home). */
  redirect: 'VENUE_API_REDIRECT',
  /** The body, as sent or decoded, exceeds api.maxResponseBytes; reading stopped there. */
  tooLarge: 'VENUE_API_RESPONSE_TOO_LARGE',
  /** A Content-Encoding not asked for (or a compressed body not labelled as such). */
  contentEncoding: 'VENUE_API_CONTENT_ENCODING',
  /** A 2xx whose body is an `errors` document. */
  errorDocument: 'VENUE_API_ERROR_DOCUMENT',
  /** A 2xx whose body is a page, not JSON (a captive portal, a proxy): not retried. */
  contentType: 'VENUE_API_CONTENT_TYPE',
  /** Valid JSON that is not the JSON:API document the spec describes. */
  schema: 'VENUE_API_SCHEMA',
  /** A pagination link that points to another origin (the token stays home). */
  foreignLink: 'VENUE_API_FOREIGN_LINK',
  paginationLoop: 'VENUE_API_PAGINATION_LOOP',
  /** A links.next to another list: another path, or other parameters than the page's (docs/api-assumptions.md). */
  paginationLink: 'VENUE_API_PAGINATION_LINK',
  /** A resource a list already held, listed again with the same content (docs/api-assumptions.md). */
  paginationDuplicate: 'VENUE_API_PAGINATION_DUPLICATE',
  /** A resource listed twice with different content; the same code as a point sent twice. */
  contradictoryValues: 'VENUE_API_CONTRADICTORY_VALUES',
  tooManyPages: 'VENUE_API_TOO_MANY_PAGES',
  /** The caller's signal aborted the request. */
  aborted: 'VENUE_API_ABORTED',
  /** The API asked (Retry-After) to wait longer than api.maxRetryAfterMs. */
  retryAfterTooLong: 'VENUE_API_RETRY_AFTER_TOO_LONG',
  /** Transient failures persisted through every retry; the last one is the `cause`. */
  retriesExhausted: 'VENUE_API_RETRIES_EXHAUSTED',
  // Transient, one attempt each. The retry loop consumes them; callers see them as `cause`.
  throttled: 'VENUE_API_THROTTLED',
  serverError: 'VENUE_API_SERVER_ERROR',
  network: 'VENUE_API_NETWORK',
  timeout: 'VENUE_API_TIMEOUT',
  badBody: 'VENUE_API_BAD_BODY',
} as const satisfies Record<string, ErrorCode>;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

export interface ApiErrorOptions {
  readonly hint?: string | undefined;
  readonly cause?: unknown;
  readonly status?: number | undefined;
  /** What the API asked for in `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number | undefined;
  /** `GET /path?query` of the request; never headers. */
  readonly request?: string | undefined;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

export class ApiError extends EtlError {
  override readonly code: ApiErrorCode;
  /** A later attempt may succeed (from `ERROR_RULES`; also in `details` for the log). */
  readonly retriable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: ApiErrorCode, message: string, options: ApiErrorOptions = {}) {
    const { retriable } = ERROR_RULES[code];
    super(code, message, {
      hint: options.hint,
      cause: options.cause,
      details: {
        retriable,
        ...(options.status === undefined ? {} : { status: options.status }),
        ...(options.request === undefined ? {} : { request: options.request }),
        ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
        ...options.details,
      },
    });
    this.name = 'ApiError';
    this.code = code;
    this.retriable = retriable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
