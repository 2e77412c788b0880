import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ResponseFault } from '../faults/fault-spec.js';
import { errorsDocument } from '../jsonapi.js';
import { JSONAPI_MEDIA_TYPE, type ApiAnswer } from './api-answer.js';

export interface FaultSettings {
  readonly retryAfterSeconds: number;
  readonly slowMs: number;
  /** Aborted when the simulator closes: a dripping body stops at once. */
  readonly signal: AbortSignal;
}

/** Sends an answer as JSON:API; returns the status sent. */
export function sendAnswer(response: ServerResponse, answer: ApiAnswer): number {
  const body = answer.text ?? JSON.stringify(answer.body);
  response.writeHead(answer.status, { ...answer.headers, 'Content-Type': JSONAPI_MEDIA_TYPE, 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
  return answer.status;
}

/** The rate limit's refusal: Retry-After in whole seconds (RFC 9110), rounded up so that waiting it out is enough. */
export function sendRateLimited(response: ServerResponse, waitMs: number): number {
  const body = errorsDocument([{ status: '429', code: 'throttled', title: 'Too Many Requests', detail: 'request was throttled' }]);
  return sendAnswer(response, { status: 429, body, headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } });
}

const GATEWAY_TITLES: Readonly<Record<string, string>> = {
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
};

/**
 * Sends what a fault makes of the answer; returns the status sent (0: no answer at all).
 * 5xx faults answer with an HTML page as a proxy in front of the API would; `errors-body` is
 * the API's own JSON:API error.
 */
export async function sendFault(response: ServerResponse, fault: ResponseFault, answer: () => ApiAnswer, settings: FaultSettings): Promise<number> {
  switch (fault) {
    case 'reset': {
      // A TCP RST, not a polite FIN: what a crashed upstream or a dropped proxy connection looks like.
      response.socket?.resetAndDestroy();
      return 0;
    }
    case '429': {
      const body = errorsDocument([{ status: '429', code: 'throttled', title: 'Too Many Requests', detail: 'request was throttled' }]);
      return sendAnswer(response, { status: 429, body, headers: { 'Retry-After': String(settings.retryAfterSeconds) } });
    }
    case 'errors-body': {
      const body = errorsDocument([{ status: '500', code: 'error', title: 'Internal Server Error', detail: 'a server error occurred' }]);
      return sendAnswer(response, { status: 500, body, headers: {} });
    }
    case '500':
    case '502':
    case '503':
    case '504': {
      const title = GATEWAY_TITLES[fault] as string;
      const html = `<html><head><title>${fault} ${title}</title></head><body><h1>${fault} ${title}</h1></body></html>\n`;
      const headers: Record<string, string | number> = { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) };
      if (fault === '503') headers['Retry-After'] = String(settings.retryAfterSeconds);
      response.writeHead(Number(fault), headers);
      response.end(html);
      return Number(fault);
    }
    case 'malformed': {
      // A prefix of a JSON document is never valid JSON: the body ends mid-value.
      const full = JSON.stringify(answer().body);
      const body = full.slice(0, Math.max(1, Math.floor(full.length * 0.6)));
      response.writeHead(200, { 'Content-Type': JSONAPI_MEDIA_TYPE, 'Content-Length': Buffer.byteLength(body) });
      response.end(body);
      return 200;
    }
    case 'truncate': {
      const { status, headers, body } = answer();
      const bytes = Buffer.from(JSON.stringify(body));
      response.writeHead(status, { ...headers, 'Content-Type': JSONAPI_MEDIA_TYPE, 'Content-Length': bytes.length });
      response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.destroy());
      return status;
    }
    case 'slow':
      return sendSlowly(response, answer(), settings);
  }
}

/**
 * The full answer, its body dripped in ten parts over `slowMs`. The drip stops when the client
 * hangs up (a client that gave up waits for nothing more, and the request is logged then, not
 * `slowMs` later) or the simulator closes.
 */
async function sendSlowly(response: ServerResponse, { status, headers, body }: ApiAnswer, settings: FaultSettings): Promise<number> {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { ...headers, 'Content-Type': JSONAPI_MEDIA_TYPE, 'Content-Length': bytes.length });
  // The headers at once, as a server streaming its answer sends them: only the body is slow.
  response.flushHeaders();
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  settings.signal.addEventListener('abort', abort, { once: true });
  response.once('close', abort);
  const chunks = 10;
  const step = Math.ceil(bytes.length / chunks);
  try {
    if (settings.signal.aborted || response.destroyed) abort();
    for (let i = 0; i < bytes.length; i += step) {
      await delay(settings.slowMs / chunks, undefined, { signal: stop.signal });
      response.write(bytes.subarray(i, i + step));
    }
    response.end();
  } catch {
    response.destroy();
  } finally {
    settings.signal.removeEventListener('abort', abort);
    response.off('close', abort);
  }
  return status;
}
