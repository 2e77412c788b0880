import type { EndpointRow } from '../catalogue/index.js';
import { schemaError, type ResourceLike } from '../normalize/index.js';
import type { DocumentSource } from './document-source.js';

/** A resource of an answer, with the JSON path error messages name it by. */
export interface FoundResource {
  readonly where: string;
  readonly resource: ResourceLike;
}

export interface FetchOptions {
  readonly stream: string;
  readonly pageSize: number;
  readonly signal?: AbortSignal;
}

/**
 * The resources one request of a row returns, read as its paginator says: a single document
 * (which must hold one resource, not a list), or every page of a list.
 */
export async function fetchResources(source: DocumentSource, row: EndpointRow, path: string, options: FetchOptions): Promise<FoundResource[]> {
  const request = { stream: options.stream, ...(options.signal ? { signal: options.signal } : {}) };
  if (row.paginator.type === 'single') {
    const { data } = await source.getDocument(path, request);
    if (isList(data)) throw schemaError(row.stream, 'data', 'is a list, expected a single resource');
    return [{ where: 'data', resource: data }];
  }
  const found: FoundResource[] = [];
  let page = 0;
  for await (const document of source.paginate(path, { ...request, pageSize: options.pageSize })) {
    page += 1;
    document.data.forEach((resource, index) => {
      found.push({ where: `page ${page} data[${index}]`, resource });
    });
  }
  return found;
}

function isList(data: ResourceLike | readonly ResourceLike[]): data is readonly ResourceLike[] {
  return Array.isArray(data);
}
