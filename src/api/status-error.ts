import { ApiError, ApiErrorCode } from './errors.js';
import { describeApiErrors } from './jsonapi.js';

/** A response whose status is not 2xx, as far as the error needs it. */
export interface FailedResponse {
  readonly status: number;
  /** The body, when it was JSON; JSON:API error details are taken from it. */
  readonly body: unknown;
  readonly retryAfterMs: number | undefined;
}

/** Statuses that say the API or something in front of it is busy or down (`VENUE_API_SERVER_ERROR`, transient). */
const BUSY_OR_DOWN_STATUSES: ReadonlySet<number> = new Set([408, 500, 502, 503, 504]);

/**
 * The coded error for a non-2xx response. `redact` removes the token from text the server
 * sent back (some servers echo the credential they refused).
 */
export function statusError(response: FailedResponse, request: string, redact: (text: string) => string): ApiError {
  const { status, retryAfterMs } = response;
  const detail = redact(describeApiErrors(response.body));
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429) {
    return new ApiError(ApiErrorCode.throttled, `${request} was throttled (429)${suffix}`, { status, retryAfterMs, request });
  }
  if (BUSY_OR_DOWN_STATUSES.has(status)) {
    return new ApiError(ApiErrorCode.serverError, `${request} failed with ${status}${suffix}`, { status, retryAfterMs, request });
  }
  if (status === 401 || status === 403) {
    const what = status === 401 ? 'the API refused the token (401).' : `the API refused the token (403) for ${request}: it lacks the rights.`;
    return new ApiError(ApiErrorCode.auth, `${what} Check api.token / VENUE_API_TOKEN.${detail ? ` The API said: ${detail}` : ''}`, {
      status,
      request,
      hint:
        status === 401
          ? 'Set api.token (or the VENUE_API_TOKEN variable it refers to) to a valid API token.'
          : 'Use a token whose account has a role on the venues and projects in scope.',
    });
  }
  if (status === 404) {
    return new ApiError(
      ApiErrorCode.notFound,
      `${request} returned 404: the venue, project or account does not exist or is not accessible with this token${suffix}`,
      { status, request, hint: 'Check the ids in scope.venues / scope.projects and that the token can read them.' },
    );
  }
  if (status === 400 || status === 422) {
    return new ApiError(ApiErrorCode.badRequest, `the API rejected ${request} (${status})${suffix || ': no detail given'}`, {
      status,
      request,
      hint: 'A filter or date value in the request is not accepted; the API message above names it.',
    });
  }
  return new ApiError(ApiErrorCode.unexpectedStatus, `${request} returned an unexpected status ${status}${suffix}`, {
    status,
    request,
    hint: status >= 300 && status < 400 ? 'The API redirects; set api.baseUrl to the address it redirects to.' : 'Check api.baseUrl.',
  });
}
