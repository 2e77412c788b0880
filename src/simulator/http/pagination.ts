import type { PageLinks, Resource } from '../jsonapi.js';
import { badRequest } from './http-error.js';

export interface PageSizes {
  readonly defaultSize: number;
  readonly maxSize: number;
}

export interface Page {
  readonly data: readonly Resource[];
  readonly links: PageLinks;
}

/** Where the request came from: what the links are built from. */
export interface LinkBase {
  /** `http://host:port`, as the client addressed the server. */
  readonly origin: string;
  readonly path: string;
  readonly rawQuery: string;
}

const positiveInt = (query: URLSearchParams, name: string): number | undefined => {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw badRequest(`"${name}" must be a whole number of at least 1, got "${value}"`, name);
  return Number(value);
};

/**
 * Page-based pagination (docs/api.md §8). A size above the maximum is clamped to it. A page number past
 * the last page answers 200 with empty `data`, `next` null and `previous` pointing at the last
 * page, so a client walking `links.next` always stops.
 */
export function paginate(items: readonly Resource[], query: URLSearchParams, sizes: PageSizes, base: LinkBase): Page {
  const number = positiveInt(query, 'page[number]') ?? 1;
  const size = Math.min(positiveInt(query, 'page[size]') ?? sizes.defaultSize, sizes.maxSize);
  const last = Math.max(1, Math.ceil(items.length / size));
  const link = (n: number): string => pageUrl(base, n, size);
  return {
    data: items.slice((number - 1) * size, number * size),
    links: {
      self: link(number),
      first: link(1),
      last: link(last),
      previous: number > 1 ? link(Math.min(number - 1, last)) : null,
      next: number < last ? link(number + 1) : null,
    },
  };
}

/** The request's URL with its other parameters kept in order and the page parameters set. */
function pageUrl({ origin, path, rawQuery }: LinkBase, number: number, size: number): string {
  const kept = rawQuery.split('&').filter((pair) => pair !== '' && !decodeKey(pair).startsWith('page['));
  return `${origin}${path}?${[...kept, `page[number]=${number}`, `page[size]=${size}`].join('&')}`;
}

function decodeKey(pair: string): string {
  const key = pair.split('=')[0] ?? '';
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}
