import type { ServerResponse } from 'node:http';

/** Seconds a sender should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

/** `{"error": {"code": …, "message": …}}`, plus `fields` for a body that failed validation. */
export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: { readonly headers?: Readonly<Record<string, string>>; readonly fields?: readonly unknown[] } = {},
): void {
  sendJson(response, status, { error: { code, message, ...(extra.fields ? { fields: extra.fields } : {}) } }, extra.headers);
}
