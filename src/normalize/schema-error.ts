import { EtlError } from '../errors/index.js';

/**
 * The API sent a document that does not match the field tables of docs/api.md (a missing or wrongly
 * typed attribute). Not retried: the same request would return the same document. The slice
 * fails, other slices go on.
 */
export function schemaError(stream: string, path: string, problem: string): EtlError {
  return new EtlError('VENUE_API_SCHEMA', `${stream}: ${path} ${problem}`, {
    hint: 'The API answered with a document venue-etl does not understand. If the API changed, update venue-etl; the other streams were loaded.',
    details: { stream, path, retriable: false },
  });
}
