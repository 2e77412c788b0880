import type { JsonApiListDocument, JsonApiResource } from './jsonapi.js';

/** Where a resource sat in the list: 1-based page, 0-based index in its `data`. */
export interface ListPosition {
  readonly page: number;
  readonly index: number;
}

/** A resource the list held twice: the same content (`repeated`), or other content (`contradictory`). */
export interface ListRepeat {
  readonly kind: 'repeated' | 'contradictory';
  readonly type: string;
  readonly id: string;
  readonly first: ListPosition;
  readonly again: ListPosition;
}

interface Seen {
  readonly resource: JsonApiResource;
  readonly page: number;
  readonly index: number;
}

/**
 * The resources one list has held so far, by type and id (docs/api-assumptions.md, "Lists read page
 * by page"). A list paged while it changes (an offset that shifts when a resource is added or
 * removed) shows one resource twice and skips another; the skipped one is invisible, but the
 * repeat is not, and a snapshot read from such a list would close a role that still exists.
 * Memory: one map entry per resource, pointing at the resource itself, which every caller keeps
 * anyway until its list ends. Content is compared only for an id seen twice: digesting every
 * role as it arrived cost 16-21 µs of CPU a resource (100,000 simulator roles: 1.6-2.1 s, 3-4
 * times a JSON stringify and parse of them); the map alone costs 2-3 µs (0.2-0.26 s).
 */
export class ResourceLedger {
  private readonly seen = new Map<string, Seen>();

  /** The first resource of `page` (page number `pageCount`) already held earlier, if any. */
  check(page: JsonApiListDocument, pageCount: number): ListRepeat | undefined {
    for (const [index, resource] of page.data.entries()) {
      const key = `${resource.type}\u0000${resource.id}`;
      const earlier = this.seen.get(key);
      if (earlier !== undefined) {
        return {
          kind: sameContent(earlier.resource, resource) ? 'repeated' : 'contradictory',
          type: resource.type,
          id: resource.id,
          first: { page: earlier.page, index: earlier.index },
          again: { page: pageCount, index },
        };
      }
      this.seen.set(key, { resource, page: pageCount, index });
    }
    return undefined;
  }
}

/** Attributes and relationships, keys sorted at every level: the same content in another key order is the same. */
function sameContent(a: JsonApiResource, b: JsonApiResource): boolean {
  const content = (resource: JsonApiResource): string => canonicalJson({ attributes: resource.attributes, relationships: resource.relationships ?? null });
  return content(a) === content(b);
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
