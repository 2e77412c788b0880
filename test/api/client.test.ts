import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiErrorCode, isListDocument } from '../../src/api/index.js';
import {
  captureLog,
  expectApiError,
  listDocument,
  rejectionOf,
  resource,
  sendJson,
  serverPerTest,
  singleDocument,
  testClient,
  TOKEN,
  type Handler,
} from './helpers.js';

const serve = serverPerTest();

const ok: Handler = (_req, res) => sendJson(res, 200, singleDocument());

describe('requests', () => {
  it('sends the bearer token, the JSON:API media type and the user agent', async () => {
    const api = await serve(ok);
    const client = testClient(api.url);
    await client.getDocument('/analytics/venue-devices-summary/v1/');
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(api.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.api+json',
      'user-agent': `venue-etl/${version}`,
    });
    await client.close();
  });

  it('puts paths below the base URL path and accepts absolute URLs of the same origin', async () => {
    const api = await serve(ok);
    const client = testClient(`${api.url}/api/v1/`);
    await client.getDocument('/analytics/venue-users-history/v1/?from=2026-01-01&to=2026-01-31');
    await client.getDocument(`${api.url}/api/v1/core/venue-roles/?filter[venue]=v1`);
    expect(api.requests.map((request) => request.url)).toEqual([
      '/api/v1/analytics/venue-users-history/v1/?from=2026-01-01&to=2026-01-31',
      '/api/v1/core/venue-roles/?filter[venue]=v1',
    ]);
    await client.close();
  });

  it('refuses an absolute URL of another origin before sending anything', async () => {
    const api = await serve(ok);
    const other = await serve(ok);
    const client = testClient(api.url);
    for (const target of [`${other.url}/x/`, '//evil.example/x/']) {
      const error = await rejectionOf(client.getDocument(target));
      expect(error.code).toBe(ApiErrorCode.foreignLink);
    }
    expect(other.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
    await client.close();
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    // The API never answers: the abort, once the request has arrived, is the only way out.
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    const api = await serve(() => arrived());
    const client = testClient(api.url);
    const controller = new AbortController();
    const pending = client.getDocument('/x/', { signal: controller.signal });
    await asked;
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error.code).toBe(ApiErrorCode.aborted);
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('an already aborted signal sends nothing', async () => {
    const api = await serve(ok);
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/x/', { signal: AbortSignal.abort() }));
    expect(error.code).toBe(ApiErrorCode.aborted);
    expect(api.requests).toHaveLength(0);
    await client.close();
  });
});

describe('JSON:API envelope', () => {
  async function answer(body: unknown) {
    const api = await serve((_req, res) => sendJson(res, 200, body));
    const client = testClient(api.url);
    const result = await client.getDocument('/core/venue-roles/').then(
      (document) => ({ document, error: undefined }),
      (error: unknown) => ({ document: undefined, error: expectApiError(error) }),
    );
    await client.close();
    return { ...result, requests: api.requests.length };
  }

  it('returns a single document and a list document as sent', async () => {
    const single = await answer(singleDocument('abc'));
    expect(single.document?.data).toEqual({ type: 'venue-devices-summary', id: 'abc', attributes: { detected: 1 } });
    const list = await answer(listDocument([resource('a'), resource('b')]));
    expect(list.document && isListDocument(list.document) && list.document.data.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('rejects a wrong jsonapi.version, naming the JSON path, without retrying', async () => {
    const { error, requests } = await answer({ ...singleDocument(), jsonapi: { version: '1.1' } });
    expect(requests).toBe(1);
    expect(error?.code).toBe(ApiErrorCode.schema);
    expect(error?.message).toContain('$.jsonapi.version');
    expect(error?.details.retriable).toBe(false);
  });

  it('rejects a missing data member and a null id', async () => {
    const missing = await answer({ jsonapi: { version: '1.0' } });
    expect(missing.error?.message).toContain('$.data');
    const nullId = await answer(listDocument([resource('a'), { type: 'accounts', id: null, attributes: {} }]));
    expect(nullId.error?.code).toBe(ApiErrorCode.schema);
    expect(nullId.error?.message).toContain('$.data[1].id');
  });

  it('rejects a list without meta.count and a bad relationship identity', async () => {
    const noCount = await answer({ data: [], jsonapi: { version: '1.0' } });
    expect(noCount.error?.message).toContain('$.meta');
    const badRelationship = await answer({
      data: { type: 'venue-roles', id: 'r', attributes: {}, relationships: { venue: { data: { type: 'venues' } } } },
      jsonapi: { version: '1.0' },
    });
    expect(badRelationship.error?.message).toContain('$.data.relationships.venue.data');
  });

  it('turns a 2xx errors document into a coded error with its title and detail', async () => {
    const { error, requests } = await answer({ errors: [{ title: 'Venue archived', detail: 'venue v1 is archived' }], jsonapi: { version: '1.0' } });
    expect(requests).toBe(1);
    expect(error?.code).toBe(ApiErrorCode.errorDocument);
    expect(error?.message).toContain('Venue archived: venue v1 is archived');
  });
});

describe('logging and stats', () => {
  it('logs each request at debug with path, status, attempt and time, never headers', async () => {
    const api = await serve(sequenceOf([500]));
    const log = captureLog('debug');
    const client = testClient(api.url, { logger: log.logger });
    await client.getDocument('/analytics/x/?from=2026-01-01', { stream: 'venue-users-summary' });
    const requests = log.lines().filter((line) => line.msg === 'api request');
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: '/analytics/x/?from=2026-01-01',
        status: 500,
        attempt: 1,
        stream: 'venue-users-summary',
        ms: expect.any(Number),
      }),
      expect.objectContaining({ status: 200, attempt: 2 }),
    ]);
    expect(log.text()).not.toMatch(/authorization|user-agent/i);
    await client.close();
  });

  it('counts per stream and logs one summary line at info, the streams at debug', async () => {
    const api = await serve(ok);
    const log = captureLog('debug');
    const client = testClient(api.url, { logger: log.logger });
    await client.getDocument('/a/', { stream: 'rating-summary' });
    await client.getDocument('/b/', { stream: 'rating-summary' });
    await client.getDocument('/c/', { stream: 'venue-roles' });
    // One request at a time: the limit stays at its start (2); it grows only while requests wait.
    expect(client.stats).toMatchObject({ requests: 3, retries: 0, failures: 0, concurrency: 2 });
    expect(client.stats.bytes).toBeGreaterThan(100);
    expect(client.stats.byStream.get('rating-summary')).toMatchObject({ requests: 2 });
    client.logSummary();
    const summaries = log.lines().filter((line) => String(line.msg).startsWith('api summary'));
    // A single document is a page: pages is not 0 next to requests 3.
    expect(summaries).toEqual([
      expect.objectContaining({ level: 20, msg: 'api summary of a stream', stream: 'rating-summary', requests: 2, pages: 2, durationMs: expect.any(Number) }),
      expect.objectContaining({ level: 20, stream: 'venue-roles', requests: 1 }),
      expect.objectContaining({ level: 30, msg: 'api summary', requests: 3, pages: 3 }),
    ]);
    expect(log.lines().filter((line) => line.msg === 'api request' && Number(line.level) >= 30)).toEqual([]);
    await client.close();
  });
});

function sequenceOf(statuses: readonly number[]): Handler {
  return (_req, res, index) => sendJson(res, statuses[index] ?? 200, statuses[index] ? { errors: [] } : singleDocument());
}
