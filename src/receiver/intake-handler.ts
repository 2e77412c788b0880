import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/index.js';
import { authorizationChecker } from './authorization.js';
import { isJsonContentType } from './content-type.js';
import { eventIdOf } from './event-id.js';
import { readBody } from './read-body.js';
import type { IntakeCounters } from './receiver-stats.js';
import { codeOf } from '../errors/index.js';
import { sendJson } from '../infra/send-json.js';
import { RETRY_AFTER_SECONDS } from './responses.js';
import { describeProblems, validateEvent, type FieldProblem } from './validate-event.js';

export const EVENTS_PATH = '/users/';
/**
 * The paths events are taken at: the documented `/users/`, and `/users` because the URL an
 * operator types into the platform's settings often lacks the trailing slash. A 404 there would
 * refuse every event while looking like a working endpoint.
 */
const EVENT_PATHS: ReadonlySet<string> = new Set([EVENTS_PATH, EVENTS_PATH.slice(0, -1)]);

// Fatal: a byte that is not UTF-8 refuses the body instead of turning into U+FFFD (the stored
// text would differ from what was sent). ignoreBOM keeps a BOM, which JSON.parse then refuses.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answered before the body was read: the connection is closed rather than drained. */
  readonly unread?: boolean;
  /** For the log line: why it was refused, which event it was. */
  readonly reason?: string;
  readonly eventId?: string;
  readonly bytes?: number;
}

function refusal(status: number, code: string, message: string, extra: Partial<Answer> & { fields?: readonly FieldProblem[] } = {}): Answer {
  const { fields, ...rest } = extra;
  return { status, body: { error: { code, message, ...(fields ? { fields } : {}) } }, reason: code, ...rest };
}

/**
 * `POST /users/` (or `/users`; docs/api.md §6). Checks in order: route (404/405), Authorization (401),
 * Content-Type (415), size (413), JSON (400), fields (400 naming each path); then the raw body
 * is journaled and fsynced, and only then answered 200 `{"status":"accepted","event_id":…}`
 * (the warehouse merge follows asynchronously). A journal that cannot write answers 503 with
 * Retry-After. Nothing of a refused request is stored, and no header is ever logged.
 */
export function createIntakeHandler(options: IntakeOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const isAuthorized = authorizationChecker(options.authorization);
  const challenge = /^basic\s/i.test(options.authorization) ? { 'www-authenticate': 'Basic realm="venue-etl receiver"' } : undefined;

  async function decide(request: IncomingMessage, path: string): Promise<Answer | undefined> {
    if (!EVENT_PATHS.has(path)) return refusal(404, 'not_found', `no such endpoint; events are POSTed to ${EVENTS_PATH}`, { unread: true });
    if (request.method !== 'POST') return refusal(405, 'method_not_allowed', `use POST ${EVENTS_PATH}`, { unread: true, headers: { allow: 'POST' } });
    if (!isAuthorized(request.headers.authorization)) {
      return refusal(401, 'unauthorized', 'missing or wrong Authorization header', { unread: true, ...(challenge ? { headers: challenge } : {}) });
    }
    if (!isJsonContentType(request.headers['content-type'])) {
      return refusal(415, 'unsupported_media_type', 'Content-Type must be application/json', { unread: true });
    }
    const read = await readBody(request, options.maxBodyBytes);
    if (read.kind === 'aborted') return undefined;
    if (read.kind === 'too-large') return refusal(413, 'payload_too_large', `the body is larger than ${options.maxBodyBytes} bytes`, { unread: true });
    const bytes = read.body.length;
    let text: string;
    try {
      text = UTF8.decode(read.body);
    } catch {
      return refusal(400, 'invalid_json', 'the body is not valid UTF-8 (JSON text must be UTF-8, RFC 8259 §8.1)', { bytes });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return refusal(400, 'invalid_json', `the body is not valid JSON: ${(error as Error).message}`, { bytes });
    }
    const validation = validateEvent(value);
    if (!validation.ok) return refusal(400, 'invalid_event', describeProblems(validation.problems), { bytes, fields: validation.problems });
    const eventId = eventIdOf(read.body);
    try {
      await options.append(read.body, Date.now());
    } catch (error) {
      const reason = codeOf(error) ?? 'journal_unavailable';
      const [code, message] =
        reason === 'VENUE_RECEIVER_JOURNAL_FULL'
          ? ['journal_full', 'too many events wait for the warehouse; retry later']
          : ['unavailable', 'the event could not be stored durably; retry later'];
      return refusal(503, code, message, { bytes, eventId, reason, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
    }
    options.onAccepted?.();
    return { status: 200, body: { status: 'accepted', event_id: eventId }, eventId, bytes };
  }

  return (request, response) => {
    const started = performance.now();
    const path = (request.url ?? '/').split('?', 1)[0];
    options.counters.requests += 1;
    decide(request, path)
      .then((answer) => {
        if (answer === undefined) return; // the sender went away mid-body
        options.counters.count(answer.status);
        // Reading (or draining) an unwanted body of unknown size is what the checks avoid, and a
        // keep-alive connection would hold a stopping server open until it times out.
        const close: Record<string, string> = answer.unread || options.isClosing?.() ? { connection: 'close' } : {};
        sendJson(response, answer.status, answer.body, { ...answer.headers, ...close });
        const entry = {
          method: request.method,
          path,
          status: answer.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          bytes: answer.bytes,
          eventId: answer.eventId,
          reason: answer.reason,
        };
        if (answer.status === 503)
          options.logger.warn(
            entry,
            answer.reason === 'VENUE_RECEIVER_JOURNAL_FULL' ? 'event not accepted: journal full' : 'event not accepted: journal unavailable',
          );
        else if (answer.status >= 400) options.logger.info(entry, 'event request refused');
        else options.logger.debug(entry, 'event accepted');
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error, path }, 'event request failed');
        if (!response.headersSent) sendJson(response, 500, { error: { code: 'internal', message: 'internal error' } }, { connection: 'close' });
        else response.destroy();
      });
  };
}
