import { displayUrl } from './display-url.js';
import { ApiError, ApiErrorCode } from './errors.js';
import type { JsonApiListDocument } from './jsonapi.js';
import { listChange } from './list-identity.js';
import { PageLoopGuard } from './page-loop.js';
import { paginationLink, paginationLoop, paginationRepeat, tooManyPages, type ListName } from './pagination-errors.js';
import { ResourceLedger } from './resource-ledger.js';

export interface FollowPagesOptions {
  /** Origin of api.baseUrl: the only one the token may be sent to. */
  readonly origin: string;
  /** Refuse to fetch more pages than this (api.maxPages): a server bug must not run forever. */
  readonly maxPages: number;
  /** The stream the list belongs to, named in errors. */
  readonly stream?: string;
  /** Removes the token from links quoted in errors. */
  readonly redact?: (text: string) => string;
}

/**
 * The lists venue-etl pages through are one venue's or project's roles, a rating-statistics
 * list filtered to one venue, and accounts by at most api.accountsBatchSize (≤ 200) ids. 1,000
 * pages hold 100,000 resources at the default api.pageSize (20,000 if the API clamps pages to 20):
 * far more than any of those. A links.next that never ends (one that changes its query string on
 * every page, so that no link repeats) ran 10,000 pages for ~6 minutes before the former cap.
 */
export const DEFAULT_MAX_PAGES = 1_000;

const noRedaction = (text: string): string => text;

/**
 * Page-based pagination (docs/api-assumptions.md; docs/api-assumptions.md, "Lists read page by page"):
 * follows `links.next` until it is null or absent. A list without `links` is a single page. The
 * next link is checked before it is requested: another origin is refused, so is a link to
 * another list (another path, or parameters other than the page's), a loop (see PageLoopGuard)
 * is an error, and the page count is capped. Each page is checked before it is handed on: a
 * resource the list already held fails the list (ResourceLedger). Every paged list (roles,
 * accounts, rating statistics) goes through here, so each gets the same checks.
 */
export async function* followPages(
  firstUrl: URL,
  fetchPage: (url: URL) => Promise<JsonApiListDocument>,
  options: FollowPagesOptions,
): AsyncGenerator<JsonApiListDocument> {
  const redact = options.redact ?? noRedaction;
  const request = `GET ${displayUrl(firstUrl, redact)}`;
  // Names the stream and, through the first request's path and filter, the venue or project.
  const list: ListName = {
    request,
    text: options.stream ? `${options.stream}: ${request}` : request,
    redact,
    ...(options.stream === undefined ? {} : { stream: options.stream }),
  };
  const guard = new PageLoopGuard(firstUrl);
  const ledger = new ResourceLedger();
  let url: URL | undefined = firstUrl;
  for (let pages = 0; url !== undefined; ) {
    if (pages === options.maxPages) throw tooManyPages(list, url, options.maxPages);
    const page = await fetchPage(url);
    pages += 1;
    const next = nextPageUrl(page, url, options.origin, list);
    if (next !== undefined) {
      const change = listChange(firstUrl, next);
      if (change !== undefined) throw paginationLink(list, change, next, pages);
      const loop = guard.check(page, pages, url, next);
      if (loop) throw paginationLoop(list, loop, next, pages);
    }
    const repeat = ledger.check(page, pages);
    if (repeat) throw paginationRepeat(list, repeat);
    yield page;
    url = next;
  }
}

function nextPageUrl(page: JsonApiListDocument, current: URL, origin: string, list: ListName): URL | undefined {
  const next = page.links?.next;
  if (next === undefined || next === null || next === '') return undefined;
  let url: URL;
  try {
    // The spec promises absolute URLs; a relative one is read against the page it came from.
    url = new URL(next, current);
  } catch (error) {
    throw new ApiError(ApiErrorCode.schema, `GET ${pathOf(current)} returned links.next that is not a URL: ${JSON.stringify(next)}`, {
      request: `GET ${pathOf(current)}`,
      cause: error,
    });
  }
  assertSameOrigin(url, origin, `links.next of ${list.text} (on page GET ${pathOf(current)})`);
  return url;
}

/** Checked before every request: the bearer token must never travel to another host. */
export function assertSameOrigin(url: URL, origin: string, what: string): void {
  if (url.origin === origin) return;
  throw new ApiError(
    ApiErrorCode.foreignLink,
    `${what} points to another origin (${url.origin}, not ${origin}); venue-etl sends the token only to api.baseUrl`,
    {
      hint: 'If the API moved, set api.baseUrl to its new address; otherwise report the link to the API provider.',
      details: { foreignOrigin: url.origin },
    },
  );
}

export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}
