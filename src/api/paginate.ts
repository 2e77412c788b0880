import { ApiError, ApiErrorCode } from './errors.js';
import type { JsonApiListDocument } from './jsonapi.js';

export interface FollowPagesOptions {
  /** Origin of api.baseUrl: the only one the token may be sent to. */
  readonly origin: string;
  /** Refuse to fetch more pages than this: a server bug must not run forever. */
  readonly maxPages: number;
}

export const DEFAULT_MAX_PAGES = 10_000;

/**
 * Page-based pagination (spec §8): follows `links.next` until it is null or absent. A list
 * without `links` is a single page. The next link is checked before it is requested: another
 * origin is refused, a link seen before is a loop, and the page count is capped.
 */
export async function* followPages(
  firstUrl: URL,
  fetchPage: (url: URL) => Promise<JsonApiListDocument>,
  options: FollowPagesOptions,
): AsyncGenerator<JsonApiListDocument> {
  const seen = new Set<string>([firstUrl.href]);
  let url: URL | undefined = firstUrl;
  for (let pages = 0; url !== undefined; ) {
    if (pages === options.maxPages) throw tooManyPages(firstUrl, options.maxPages);
    const page = await fetchPage(url);
    pages += 1;
    const next = nextPageUrl(page, url, options.origin);
    if (next !== undefined) {
      if (seen.has(next.href)) throw paginationLoop(next, pages);
      seen.add(next.href);
    }
    yield page;
    url = next;
  }
}

function nextPageUrl(page: JsonApiListDocument, current: URL, origin: string): URL | undefined {
  const next = page.links?.next;
  if (next === undefined || next === null || next === '') return undefined;
  let url: URL;
  try {
    // The spec promises absolute URLs; a relative one is read against the page it came from.
    url = new URL(next, current);
  } catch (error) {
    throw new ApiError(ApiErrorCode.schema, `GET ${pathOf(current)} returned links.next that is not a URL: ${JSON.stringify(next)}`, {
      retriable: false,
      request: `GET ${pathOf(current)}`,
      cause: error,
    });
  }
  assertSameOrigin(url, origin, `links.next of GET ${pathOf(current)}`);
  return url;
}

function paginationLoop(next: URL, pages: number): ApiError {
  return new ApiError(ApiErrorCode.paginationLoop, `pagination loops: links.next ${pathOf(next)} came a second time after ${pages} pages`, {
    retriable: false,
    request: `GET ${pathOf(next)}`,
    hint: 'The API repeats a page link; report it to the API provider. A smaller api.pageSize may avoid it.',
    details: { pages },
  });
}

function tooManyPages(first: URL, maxPages: number): ApiError {
  return new ApiError(ApiErrorCode.tooManyPages, `GET ${pathOf(first)} has more than ${maxPages} pages; stopped following links.next`, {
    retriable: false,
    request: `GET ${pathOf(first)}`,
    hint: 'Raise api.pageSize so that fewer pages are needed, or narrow the request (fewer ids, a shorter window).',
    details: { maxPages },
  });
}

/** Checked before every request: the bearer token must never travel to another host. */
export function assertSameOrigin(url: URL, origin: string, what: string): void {
  if (url.origin === origin) return;
  throw new ApiError(ApiErrorCode.foreignLink, `${what} points to another origin (${url.origin}, not ${origin}); venue-etl sends the token only to api.baseUrl`, {
    retriable: false,
    hint: 'If the API moved, set api.baseUrl to its new address; otherwise report the link to the API provider.',
    details: { foreignOrigin: url.origin },
  });
}

export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}
