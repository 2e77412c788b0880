import { createHash } from 'node:crypto';
import type { JsonApiListDocument } from './jsonapi.js';

/** Why following a links.next would go round in circles. */
export interface PageLoop {
  readonly kind: 'same-link' | 'page-number' | 'same-resources';
  readonly reason: string;
}

/**
 * Spots a list whose links.next would never end, before the link is followed, so a looping
 * server costs a page or two instead of api.maxPages of them. It assumes (docs/api-assumptions.md,
 * Pagination) that a list keeps its order while it is paged, so two pages never hold the same
 * resources in the same order, and that `page[number]`, when the links carry it, grows from page
 * to page. A list that shifts by exactly one page between two requests breaks the first
 * assumption: that list fails, nothing is stored from it, and the next run reads it again.
 */
export class PageLoopGuard {
  private readonly links = new Set<string>();
  /** A digest of each page's resource identities → the first page that held them. */
  private readonly pages = new Map<string, number>();

  constructor(first: URL) {
    this.links.add(first.href);
  }

  /** Checks `next`, found on page `pageCount` (1-based) fetched from `current`. */
  check(page: JsonApiListDocument, pageCount: number, current: URL, next: URL): PageLoop | undefined {
    if (this.links.has(next.href)) return { kind: 'same-link', reason: 'links.next names a page that was already fetched' };
    this.links.add(next.href);
    const from = pageNumber(current);
    const to = pageNumber(next);
    if (from !== undefined && to !== undefined && to <= from) {
      return { kind: 'page-number', reason: `links.next asks for page[number]=${to} after page[number]=${from}` };
    }
    const digest = digestOf(page);
    const earlier = this.pages.get(digest);
    if (earlier !== undefined) {
      const count = page.data.length;
      return {
        kind: 'same-resources',
        reason: `page ${pageCount} holds the same ${count === 0 ? 'nothing' : `${count} resource${count === 1 ? '' : 's'}`} as page ${earlier}`,
      };
    }
    this.pages.set(digest, pageCount);
    return undefined;
  }
}

function pageNumber(url: URL): number | undefined {
  const value = url.searchParams.get('page[number]');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** 20 bytes per page, whatever the page size: the identities, in order. */
function digestOf(page: JsonApiListDocument): string {
  const hash = createHash('sha1');
  for (const resource of page.data) hash.update(`${resource.type}\u0000${resource.id}\n`);
  return hash.digest('base64');
}
