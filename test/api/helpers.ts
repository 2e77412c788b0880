import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach } from 'vitest';
import { createApiClient, isApiError, type ApiClient, type ApiClientOptions, type ApiError } from '../../src/api/index.js';
import type { Logger } from '../../src/log/index.js';

export const TOKEN = 'tok_live_5f2b9c1e8a7d4e6f';

export interface RecordedRequest {
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** performance.now() when the request arrived. */
  readonly at: number;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Highest number of requests handled at the same time. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => unknown;

/** A real HTTP server on 127.0.0.1, port 0; the handler gets the 0-based index of the request. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    const index = requests.length;
    requests.push({ url: req.url ?? '', headers: req.headers, at: performance.now() });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    res.on('close', finish);
    Promise.resolve(handler(req, res, index)).catch((error: unknown) => {
      res.destroy(error as Error);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `serve(handler)` for one test file: every server it starts is closed after each test. */
export function serverPerTest(): (handler: Handler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function resource(id: string, type = 'accounts', attributes: Record<string, unknown> = {}) {
  return { type, id, attributes };
}

export function singleDocument(id = 'r-1', type = 'venue-devices-summary') {
  return { data: resource(id, type, { detected: 1 }), jsonapi: { version: '1.0' } };
}

export function listDocument(resources: readonly unknown[], links?: Record<string, string | null>) {
  return { data: resources, meta: { count: resources.length }, ...(links ? { links } : {}), jsonapi: { version: '1.0' } };
}

export interface CapturedLog {
  readonly logger: Logger;
  readonly lines: () => Record<string, unknown>[];
  readonly text: () => string;
}

/**
 * A plain pino logger writing to memory. Deliberately without the project's secret scrubbing:
 * a test that the token never reaches a log must see what the client itself writes.
 */
export function captureLog(level: pino.LevelWithSilent = 'debug'): CapturedLog {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level, base: null }, destination);
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A client with fast backoff, so retry tests take milliseconds. */
export function testClient(baseUrl: string, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({
    baseUrl,
    token: TOKEN,
    concurrency: 4,
    timeoutMs: 2_000,
    maxRetries: 3,
    maxRetryAfterMs: 10_000,
    retryBaseMs: 5,
    retryMaxBackoffMs: 20,
    logger: overrides.logger ?? captureLog('silent').logger,
    ...overrides,
  });
}

/** `error` as the ApiError the client rejects with; anything else fails the test. */
export function expectApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  throw new Error(`expected an ApiError, got ${String(error)}`, { cause: error });
}

/** The rejection of `promise`, failing the test if it resolves or rejects with something other than an ApiError. */
export async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return expectApiError(error);
  }
  throw new Error('expected a rejection');
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
