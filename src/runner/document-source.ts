import type { ResourceLike } from '../normalize/index.js';

export interface RequestOptions {
  readonly stream?: string;
  readonly signal?: AbortSignal;
}

/**
 * What extraction needs from the API client: one document, or the pages of a list. The real
 * client (src/api) satisfies it; keeping it narrow keeps the runner testable on its own.
 */
export interface DocumentSource {
  getDocument(pathOrUrl: string, options?: RequestOptions): Promise<{ readonly data: ResourceLike | readonly ResourceLike[] }>;
  paginate(path: string, options: RequestOptions & { readonly pageSize: number }): AsyncIterable<{ readonly data: readonly ResourceLike[] }>;
}
