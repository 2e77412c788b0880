import { displayUrl } from './display-url.js';
import { ApiError, ApiErrorCode } from './errors.js';

/**
 * A 3xx answer. Redirects are not followed, to any origin: the bearer token must never travel to
 * another host, and a redirect within the API's host is either a moved API (api.baseUrl should
 * say where it is now) or a login page that would only fail later as a body that is not JSON.
 * Either way the slice fails with a message that says where the redirect pointed.
 */
export function redirectError(
  status: number,
  location: string | undefined,
  current: URL,
  origin: string,
  request: string,
  redact: (text: string) => string,
): ApiError {
  const target = parseLocation(location, current);
  if (target === undefined) {
    return new ApiError(
      ApiErrorCode.redirect,
      // An unreadable Location is not quoted: it may hold credentials displayUrl cannot find.
      `${request} answered ${status} (a redirect) without a usable Location header${location?.trim() ? ' (the one sent is not a URL)' : ''}`,
      {
        status,
        request,
        hint: 'The API, or a proxy or cache in front of it, redirects without saying where to; check that api.baseUrl is the address of the API itself.',
      },
    );
  }
  const shown = displayUrl(target, redact, { withOrigin: target.origin !== origin });
  if (target.origin !== origin) {
    return new ApiError(
      ApiErrorCode.redirect,
      `${request} was redirected (${status}) to another origin, ${shown}; venue-etl does not follow redirects, and sends the token only to ${origin} (api.baseUrl)`,
      {
        status,
        request,
        hint: `If the API has moved (e.g. from http to https), set api.baseUrl to its new address on ${target.origin}.`,
        details: { location: shown, foreignOrigin: target.origin },
      },
    );
  }
  return new ApiError(ApiErrorCode.redirect, `${request} was redirected (${status}) to ${shown}; venue-etl does not follow redirects`, {
    status,
    request,
    hint: 'If the API has moved, set api.baseUrl to its new address; a redirect to a login page means api.baseUrl points at a web front end, not at the API.',
    details: { location: shown },
  });
}

function parseLocation(location: string | undefined, current: URL): URL | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    return new URL(location.trim(), current);
  } catch {
    return undefined;
  }
}
