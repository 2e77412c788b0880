import { errorsDocument, type ErrorsDocument } from '../jsonapi.js';

/** An answer other than 200, carried up from a handler to be sent as a JSON:API errors document. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly parameter?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }

  toDocument(): ErrorsDocument {
    return errorsDocument([
      {
        status: String(this.status),
        code: this.code,
        title: this.title,
        detail: this.message,
        ...(this.parameter === undefined ? {} : { source: { parameter: this.parameter } }),
      },
    ]);
  }
}

export const badRequest = (detail: string, parameter?: string): HttpError => new HttpError(400, 'invalid', 'Bad Request', detail, parameter);
export const notFound = (detail: string): HttpError => new HttpError(404, 'not_found', 'Not Found', detail);
