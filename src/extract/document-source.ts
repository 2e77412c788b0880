import type { ResourceLike } from '../normalize/index.js';

export interface RequestOptions {
  readonly stream?: string;
  readonly signal?: AbortSignal;
  /** Called with the `Date` header of the successful answer (the API's clock), or undefined without one. */
  readonly onResponseDate?: (date: string | undefined) => void;
  /** A refused connection fails at once instead of after every retry (nothing is listening). */
  readonly failFastOnRefused?: boolean;
}

/**
 * What extraction needs from the API client: one document, or the pages of a list. The real
 * client (src/api) satisfies it; keeping it narrow keeps the extractors testable on their own.
 */
export interface DocumentSource {
  /** api.baseUrl: batched requests are sized with it. */
  readonly baseUrl: string;
  getDocument(pathOrUrl: string, options?: RequestOptions): Promise<{ readonly data: ResourceLike | readonly ResourceLike[] }>;
  paginate(path: string, options: RequestOptions & { readonly pageSize: number }): AsyncIterable<{ readonly data: readonly ResourceLike[] }>;
}
