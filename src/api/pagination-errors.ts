import { displayUrl } from './display-url.js';
import { ApiError, ApiErrorCode } from './errors.js';
import type { PageLoop } from './page-loop.js';
import type { ListRepeat } from './resource-ledger.js';

/** The list being paged, as errors name it. */
export interface ListName {
  /** The first page's request. */
  readonly request: string;
  /** `<stream>: <request>` */
  readonly text: string;
  readonly stream?: string;
  /** Removes the token from links quoted in errors. */
  readonly redact: (text: string) => string;
}

const READ_AGAIN = 'nothing of this list was stored, and the next run reads it again';

export function paginationLoop(list: ListName, loop: PageLoop, next: URL, pages: number): ApiError {
  const link = displayUrl(next, list.redact);
  return new ApiError(
    ApiErrorCode.paginationLoop,
    `${list.text}: pagination loops after ${plural(pages, 'page')}: ${loop.reason}; links.next ${link} was not followed`,
    {
      request: list.request,
      hint: 'The API repeats pages of this list; report it to the API provider. A different api.pageSize may avoid it; the list is read again on the next run.',
      details: { ...streamOf(list), pages, loop: loop.kind, lastLink: link },
    },
  );
}

/** A links.next that names another list: another path, or other parameters than the page's. */
export function paginationLink(list: ListName, change: string, next: URL, pages: number): ApiError {
  const link = displayUrl(next, list.redact);
  return new ApiError(
    ApiErrorCode.paginationLink,
    `${list.text}: links.next on page ${pages} leaves the list (it ${change}); links.next ${link} was not followed`,
    {
      request: list.request,
      hint: `A page may change only its page parameters (page[…]); a page of another list would be stored as this one's, so ${READ_AGAIN}. If it persists, report the link to the API provider.`,
      details: { ...streamOf(list), pages, change, lastLink: link },
    },
  );
}

/** A resource the list held twice: the list shifted while it was paged, or contradicts itself. */
export function paginationRepeat(list: ListName, repeat: ListRepeat): ApiError {
  const where = (p: ListRepeat['first']): string => `page ${p.page} data[${p.index}]`;
  const what = `${repeat.type} ${repeat.id} at ${where(repeat.again)} was already listed at ${where(repeat.first)}`;
  const details = { ...streamOf(list), type: repeat.type, id: repeat.id, first: repeat.first, again: repeat.again };
  if (repeat.kind === 'contradictory') {
    return new ApiError(ApiErrorCode.contradictoryValues, `${list.text}: ${what}, with other content`, {
      request: list.request,
      hint: `The API sent the same resource twice with different content; venue-etl cannot tell which is right, so ${READ_AGAIN}.`,
      details,
    });
  }
  return new ApiError(ApiErrorCode.paginationDuplicate, `${list.text}: ${what}: the list changed or repeated itself while it was paged`, {
    request: list.request,
    hint: `A list paged while it changes shows one resource twice and skips another, which would then be taken as gone; ${READ_AGAIN}. If it persists, report it to the API provider.`,
    details,
  });
}

export function tooManyPages(list: ListName, next: URL, maxPages: number): ApiError {
  const link = displayUrl(next, list.redact);
  return new ApiError(ApiErrorCode.tooManyPages, `${list.text} still had a links.next after ${maxPages} pages (api.maxPages); stopped before ${link}`, {
    request: list.request,
    hint: `If this list really is that long, raise api.maxPages (now ${maxPages}) or api.pageSize; if its links.next never ends, report it to the API provider.`,
    details: { ...streamOf(list), maxPages, lastLink: link },
  });
}

function streamOf(list: ListName): { stream?: string } {
  return list.stream === undefined ? {} : { stream: list.stream };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
