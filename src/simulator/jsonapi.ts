/** JSON:API shapes the simulator serves (docs/api.md §1, §8). */
const JSONAPI_VERSION = { version: '1.0' } as const;

export interface Relationship {
  readonly data: { readonly type: string; readonly id: string };
}

export interface Resource {
  readonly type: string;
  /** Always a UUID; `null` only under the `drift-null-id` fault. */
  readonly id: string | null;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly relationships?: Readonly<Record<string, Relationship>>;
}

export interface PageLinks {
  readonly self: string;
  readonly first: string;
  readonly last: string;
  readonly previous: string | null;
  readonly next: string | null;
}

export interface SingleDocument {
  readonly data: Resource;
  readonly jsonapi: { readonly version: string };
}

export interface ListDocument {
  readonly data: readonly Resource[];
  readonly meta: { readonly count: number };
  readonly links: PageLinks;
  readonly jsonapi: { readonly version: string };
}

export interface ErrorObject {
  readonly status: string;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly source?: { readonly parameter?: string; readonly pointer?: string };
}

export interface ErrorsDocument {
  readonly errors: readonly ErrorObject[];
  readonly jsonapi: { readonly version: string };
}

export type Document = SingleDocument | ListDocument | ErrorsDocument;

export function singleDocument(data: Resource): SingleDocument {
  return { data, jsonapi: { ...JSONAPI_VERSION } };
}

/** `meta.count` is the number of resources in this response (this page), as docs/api.md §8 says. */
export function listDocument(data: readonly Resource[], links: PageLinks): ListDocument {
  return { data, meta: { count: data.length }, links, jsonapi: { ...JSONAPI_VERSION } };
}

export function errorsDocument(errors: readonly ErrorObject[]): ErrorsDocument {
  return { errors, jsonapi: { ...JSONAPI_VERSION } };
}

export function relationship(type: string, id: string): Relationship {
  return { data: { type, id } };
}
