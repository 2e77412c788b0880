import type { EndpointRow } from '../catalogue/index.js';
import type { ResourceLike } from '../normalize/index.js';
import type { DocumentSource } from './document-source.js';
import { requestPath } from './requests.js';

/** What the access check found: the caller's own resource, and the API's clock. */
export interface CallerAnswer {
  readonly data: ResourceLike | readonly ResourceLike[];
  /** The answer's `Date` header (undefined without one). */
  readonly date: string | undefined;
}

/**
 * One cheap request before the warehouse is opened: the catalogue's caller row (the token's own
 * account). A refused token (or a wrong base URL) fails here, with nothing written anywhere.
 * Resolves with the answer's `Date` header, the API's clock (undefined without one). A refused
 * connection fails at once: nothing listens at api.baseUrl, and eight seconds of retries would
 * only delay saying so.
 */
export async function accessCheck(source: DocumentSource, row: EndpointRow, signal?: AbortSignal): Promise<string | undefined> {
  return (await callerAnswer(source, row, signal)).date;
}

/** The access check's request, with the account it answered (`venue-etl init` shows it). */
export async function callerAnswer(source: DocumentSource, row: EndpointRow, signal?: AbortSignal): Promise<CallerAnswer> {
  let date: string | undefined;
  const document = await source.getDocument(requestPath(row, {}), {
    stream: row.stream,
    failFastOnRefused: true,
    onResponseDate: (value) => {
      date = value;
    },
    ...(signal ? { signal } : {}),
  });
  return { data: document.data, date };
}
