import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { decideFaults } from '../faults/fault-decision.js';
import type { FaultSpec } from '../faults/fault-spec.js';
import { DEFAULT_UTC_OFFSET } from '../faults/fault-spec.js';
import { applyHostile } from '../faults/hostile-answers.js';
import { applyDrift } from '../faults/schema-drift.js';
import { simulatedNow } from '../dates.js';
import { answerApi, type ApiAnswer, type ApiDependencies } from './api-answer.js';
import { CONTROL_PREFIX, handleControl, type SimulatorControls } from './control.js';
import type { RateLimiter, RateLimitSettings } from './rate-limit.js';
import { rateLimitHeaders, type RateLimitHeaderStyle } from './rate-limit-headers.js';
import { sendAnswer, sendFault, sendRateLimited } from './respond.js';
import type { RecordedRequest, RequestLog } from './request-log.js';

export interface ServerDependencies extends ApiDependencies {
  readonly seed: number;
  readonly log: RequestLog;
  readonly controls: SimulatorControls;
  readonly latencyMs: number;
  /** The API's rate limit per bearer token; none when absent. */
  readonly rateLimiter?: RateLimiter;
  /** Tells it in every answer's headers, with its settings (`--rate-limit-headers`). */
  readonly rateLimitHeaders?: { readonly style: RateLimitHeaderStyle; readonly settings: RateLimitSettings };
  /** The machine clock whose time of day the simulated clock shows. */
  readonly clock: () => Date;
  readonly onRequest?: (request: RecordedRequest) => void;
}

export interface RunningServer {
  readonly url: string;
  /** Resolves once no API request is being answered (each one answered is in the log). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the HTTP server; `close()` also ends keep-alive sockets and pending slow answers. */
export async function listen(deps: ServerDependencies, port: number, host: string): Promise<RunningServer> {
  const closing = new AbortController();
  // Every answer waiting out its latency or dripping a slow body listens on it: dozens at once
  // are normal here, not the leak Node warns about after ten.
  setMaxListeners(0, closing.signal);
  const sockets = new Set<Socket>();
  // Set once listening, before any request can arrive.
  let url = '';
  // The API requests being answered: a test reads the log once they are all in it.
  const answering = new Set<Promise<void>>();
  const server = createServer((request, response) => {
    const handled = request.url?.startsWith(CONTROL_PREFIX)
      ? handleControl(request, response, deps.token, deps.controls)
      : track(answering, handleApi(request, response, deps, url, closing.signal));
    handled.catch((error: unknown) => {
      // A bug must not take the whole simulator down: answer 500 if still possible.
      if (!response.headersSent) {
        response.writeHead(500, { 'Content-Type': 'text/plain' });
        response.end(String(error));
      } else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the simulator has no TCP address');
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url,
    async settled() {
      while (answering.size > 0) await Promise.allSettled([...answering]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function handleApi(request: IncomingMessage, response: ServerResponse, deps: ServerDependencies, serverUrl: string, signal: AbortSignal): Promise<void> {
  const at = new Date().toISOString();
  const url = request.url ?? '/';
  const [path = '/', query = ''] = splitOnce(url, '?');
  // The path segment naming the endpoint: /analytics/<stream>/…, /core/<stream>/, /accounts/<stream>/…
  const stream = path.split('/')[2] ?? '';
  // The limit is counted on arrival, as a gateway in front of the API would; a refused request
  // draws no fault (its retry gets the draw the request would have had).
  const arrivedAt = performance.now();
  const bucketKey = request.headers.authorization ?? '';
  const waitMs = deps.rateLimiter?.take(bucketKey, arrivedAt) ?? 0;
  const { rateLimiter, rateLimitHeaders: told } = deps;
  const limitHeaders = rateLimiter && told ? rateLimitHeaders(told.style, told.settings, rateLimiter, bucketKey, arrivedAt) : {};
  const spec: FaultSpec = deps.controls.faults;
  const ordinal = waitMs > 0 ? undefined : deps.log.nextOrdinal(url);
  const decision = ordinal === undefined ? undefined : decideFaults(deps.seed, spec, url, stream, ordinal);
  if (deps.latencyMs > 0) {
    try {
      await delay(deps.latencyMs, undefined, { signal });
    } catch {
      response.destroy();
      return;
    }
  }
  // The API's clock is the simulated one: its date is `today`, whatever the machine says.
  response.setHeader('Date', simulatedNow(deps.world.today, deps.clock()).toUTCString());
  for (const [name, value] of Object.entries(limitHeaders)) response.setHeader(name, value);
  let status: number;
  let fault: string | undefined;
  if (decision === undefined) {
    fault = 'rate-limit';
    status = sendRateLimited(response, waitMs);
  } else if (decision.response) {
    fault = decision.response;
    status = await sendFault(response, decision.response, () => answerApi(request, deps, serverUrl), {
      retryAfterSeconds: spec.retryAfterSeconds ?? 1,
      slowMs: spec.slowMs ?? 3000,
      signal,
    });
  } else {
    let answer: ApiAnswer = answerApi(request, deps, serverUrl);
    const applied: string[] = [];
    if (answer.status === 200 && decision.drifts.length > 0) {
      const drifted = applyDrift(answer.body, decision.drifts);
      answer = { ...answer, body: drifted.document };
      applied.push(...drifted.applied);
    }
    if (answer.status === 200 && decision.hostile.length > 0) {
      const hostile = applyHostile(answer.body, decision.hostile, { world: deps.world, path, utcOffset: spec.utcOffset ?? DEFAULT_UTC_OFFSET });
      answer = { ...answer, text: hostile.text };
      applied.push(...hostile.applied);
    }
    if (applied.length > 0) fault = applied.join(',');
    status = sendAnswer(response, answer);
  }
  const entry: RecordedRequest = {
    method: request.method ?? 'GET',
    path,
    query,
    headers: flattenHeaders(request),
    status,
    ...(fault === undefined ? {} : { fault }),
    ...(ordinal === undefined ? {} : { attempt: ordinal + 1 }),
    at,
  };
  deps.log.add(entry);
  deps.onRequest?.(entry);
}

function track(pending: Set<Promise<void>>, work: Promise<void>): Promise<void> {
  pending.add(work);
  const forget = (): boolean => pending.delete(work);
  work.then(forget, forget);
  return work;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
