import { createHash } from 'node:crypto';
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
  readonly digest: string;
  readonly page: number;
  readonly index: number;
}

/**
 * The resources one list has held so far, by type and id, each with a digest of its content
 * (docs/roles.md, "Lists read page by page"). A list paged while it changes (an offset that
 * shifts when a resource is added or removed) shows one resource twice and skips another; the
 * skipped one is invisible, but the repeat is not, and a snapshot read from such a list would
 * close a role that still exists. Memory: one entry (~150 bytes) per resource of the list, next to
 * the resources themselves, which the caller keeps anyway until the list ends.
 */
export class ResourceLedger {
  private readonly seen = new Map<string, Seen>();

  /** The first resource of `page` (page number `pageCount`) already held earlier, if any. */
  check(page: JsonApiListDocument, pageCount: number): ListRepeat | undefined {
    for (const [index, resource] of page.data.entries()) {
      const key = `${resource.type}\u0000${resource.id}`;
      const digest = contentDigest(resource);
      const earlier = this.seen.get(key);
      if (earlier !== undefined) {
        return {
          kind: earlier.digest === digest ? 'repeated' : 'contradictory',
          type: resource.type,
          id: resource.id,
          first: { page: earlier.page, index: earlier.index },
          again: { page: pageCount, index },
        };
      }
      this.seen.set(key, { digest, page: pageCount, index });
    }
    return undefined;
  }
}

/** Attributes and relationships, keys sorted at every level: the same content in another key order is the same. */
function contentDigest(resource: JsonApiResource): string {
  const hash = createHash('sha1');
  hash.update(canonicalJson({ attributes: resource.attributes, relationships: resource.relationships ?? null }));
  return hash.digest('base64');
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
