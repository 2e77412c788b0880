import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/index.js';
import { authorizationChecker } from './authorization.js';
import { isJsonContentType } from './content-type.js';
import { eventIdOf } from './event-id.js';
import { readBody } from './read-body.js';
import type { IntakeCounters } from './receiver-stats.js';
import { RETRY_AFTER_SECONDS, sendError, sendJson } from './responses.js';
import { describeProblems, validateEvent } from './validate-event.js';

export const EVENTS_PATH = '/users/';

export interface IntakeOptions {
  /** The complete expected `Authorization` header value. */
  readonly authorization: string;
  readonly maxBodyBytes: number;
  /** Resolves once the body is durable; rejects when it cannot be made durable. */
  readonly append: (body: Buffer, receivedAtMs: number) => Promise<void>;
  readonly logger: Logger;
  readonly counters: IntakeCounters;
  readonly onAccepted?: () => void;
  /** True once the receiver is stopping: answers then close their connection. */
  readonly isClosing?: () => boolean;
}

/**
 * `POST /users/` (spec §6). Checks in order: route (404/405), Authorization (401),
 * Content-Type (415), size (413), JSON (400), fields (400 naming each path); then the raw body
 * is journaled and fsynced, and only then answered 200 `{"status":"accepted","event_id":…}`
 * (the warehouse merge follows asynchronously). A journal that cannot write answers 503 with
 * Retry-After. Nothing of a rejected request is stored, and no header is ever logged.
 */
export function createIntakeHandler(options: IntakeOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const isAuthorized = authorizationChecker(options.authorization);
  const basicScheme = /^basic\s/i.test(options.authorization);

  return (request, response) => {
    const started = performance.now();
    // A keep-alive connection would otherwise hold a stopping server open until it times out.
    const closeIfStopping = (): void => {
      if (options.isClosing?.()) response.setHeader('connection', 'close');
    };
    const path = (request.url ?? '/').split('?', 1)[0];
    let eventId: string | undefined;
    let bodyBytes: number | undefined;
    let reason: string | undefined;
    options.counters.requests += 1;

    response.on('finish', () => {
      options.counters.count(response.statusCode);
      const entry = { method: request.method, path, status: response.statusCode, ms: Math.round((performance.now() - started) * 10) / 10, bytes: bodyBytes, eventId, reason };
      if (response.statusCode === 503) options.logger.warn(entry, 'event not accepted: journal unavailable');
      else if (response.statusCode >= 400) options.logger.info(entry, 'event request refused');
      else options.logger.debug(entry, 'event accepted');
    });

    // An answer sent before the body was read closes the connection: reading (or draining) an
    // unwanted body of unknown size is what the limits are there to avoid.
    const refuse = (status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}): void => {
      reason = code;
      sendError(response, status, code, message, { headers: { connection: 'close', ...headers } });
    };

    if (path !== EVENTS_PATH) return refuse(404, 'not_found', `no such endpoint; events are POSTed to ${EVENTS_PATH}`);
    if (request.method !== 'POST') return refuse(405, 'method_not_allowed', `use POST ${EVENTS_PATH}`, { allow: 'POST' });
    if (!isAuthorized(request.headers.authorization)) {
      return refuse(401, 'unauthorized', 'missing or wrong Authorization header', basicScheme ? { 'www-authenticate': 'Basic realm="venue-etl receiver"' } : {});
    }
    if (!isJsonContentType(request.headers['content-type'])) {
      return refuse(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }

    void (async () => {
      const read = await readBody(request, options.maxBodyBytes);
      if (read.kind === 'aborted') return;
      if (read.kind === 'too-large') {
        return refuse(413, 'payload_too_large', `the body is larger than ${options.maxBodyBytes} bytes`);
      }
      bodyBytes = read.body.length;
      let value: unknown;
      try {
        value = JSON.parse(read.body.toString('utf8'));
      } catch (error) {
        reason = 'invalid_json';
        closeIfStopping();
        return sendError(response, 400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
      }
      const validation = validateEvent(value);
      if (!validation.ok) {
        reason = 'invalid_event';
        closeIfStopping();
        return sendError(response, 400, 'invalid_event', describeProblems(validation.problems), { fields: validation.problems });
      }
      eventId = eventIdOf(read.body);
      try {
        await options.append(read.body, Date.now());
      } catch (error) {
        reason = (error as { code?: string }).code ?? 'journal_unavailable';
        closeIfStopping();
        return sendError(response, 503, 'unavailable', 'the event could not be stored durably; retry later', {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        });
      }
      options.onAccepted?.();
      closeIfStopping();
      sendJson(response, 200, { status: 'accepted', event_id: eventId });
    })().catch((error: unknown) => {
      options.logger.error({ err: error, path }, 'event request failed');
      if (!response.headersSent) sendError(response, 500, 'internal', 'internal error');
      else response.destroy();
    });
  };
}
