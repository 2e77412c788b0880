import type { EndpointRow } from '../catalogue/index.js';
import type { DocumentSource } from './document-source.js';
import { requestPath } from './requests.js';

/**
 * One cheap request before the warehouse is opened: the catalogue's caller row (the token's own
 * account). A refused token (or a wrong base URL) fails here, with nothing written anywhere.
 * Resolves with the answer's `Date` header, the API's clock (undefined without one). A refused
 * connection fails at once: nothing listens at api.baseUrl, and eight seconds of retries would
 * only delay saying so.
 */
export async function accessCheck(source: DocumentSource, row: EndpointRow, signal?: AbortSignal): Promise<string | undefined> {
  let date: string | undefined;
  await source.getDocument(requestPath(row, {}), {
    stream: row.stream,
    failFastOnRefused: true,
    onResponseDate: (value) => {
      date = value;
    },
    ...(signal ? { signal } : {}),
  });
  return date;
}
