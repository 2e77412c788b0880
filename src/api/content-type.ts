import { ApiError, ApiErrorCode } from './errors.js';

/** JSON:API's type, plain JSON, or any `+json` type (application/problem+json): a body to parse. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
/** A body that starts like markup (after white space and a BOM) cannot be JSON whatever it is labelled. */
const MARKUP = /^[\s\uFEFF]*</;
const JSON_START = /^[\s\uFEFF]*[{[]/;

/**
 * A 2xx answer that is not JSON but a page: a captive portal (a network that wants a login), a
 * transparent proxy or a firewall's block page answered instead of the API. Asking again gets
 * the same page, so it is not retried (it used to be, 7 times over 22-28 s, and then reported as
 * "malformed JSON: Unexpected token '<'" with the hint to raise api.maxRetries). A JSON body
 * under a sloppy label (`text/plain`) is still read; returns undefined for an answer to parse.
 */
export function pageInsteadOfJson(
  contentType: string | undefined,
  text: string,
  request: string,
  status: number,
  redact: (text: string) => string,
): ApiError | undefined {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
  const labelledJson = mediaType === undefined || JSON_MEDIA_TYPE.test(mediaType);
  if (!MARKUP.test(text) && (labelledJson || JSON_START.test(text))) return undefined;
  const label = mediaType === undefined ? 'no Content-Type' : `Content-Type ${mediaType}`;
  const title = pageTitle(text, redact);
  return new ApiError(
    ApiErrorCode.contentType,
    `${request} answered ${status} with ${label} and a body that is not JSON${title ? ` (a page titled "${title}")` : ''}, not the API's application/vnd.api+json`,
    {
      status,
      request,
      hint:
        'something between venue-etl and the API answered instead of it: a captive portal (a network that wants a login in a browser first), ' +
        "a proxy or a firewall's block page. Check that this machine reaches api.baseUrl directly (open it with curl from here), and that api.baseUrl is the API, not a web site",
      details: { contentType: mediaType ?? null },
    },
  );
}

/** The page's `<title>`, on one line and short, without anything that looks like the token. */
function pageTitle(text: string, redact: (text: string) => string): string | undefined {
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text.slice(0, 16_384))?.[1];
  if (title === undefined) return undefined;
  // Control characters and quotes out: the title goes into a one-line message between quotes.
  const clean = [...redact(title)]
    .map((c) => (c < ' ' || c === '\u007f' || c === '"' ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return clean === '' ? undefined : clean.slice(0, 80);
}
