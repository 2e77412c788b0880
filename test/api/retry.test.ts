import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { captureLog, expectApiError, rejectionOf, sendJson, serverPerTest, singleDocument, startServer, testClient, type Handler } from './helpers.js';

const serve = serverPerTest();

/** Answers the i-th request with `statuses[i]` (an empty 2xx document after the list ends). */
function sequence(statuses: readonly number[], headers: Record<string, string> = {}): Handler {
  return (_req, res, index) => {
    const status = statuses[index];
    if (status === undefined) sendJson(res, 200, singleDocument());
    else sendJson(res, status, { errors: [{ status: String(status), title: 'Busy' }] }, headers);
  };
}

describe('retries', () => {
  it('waits the 2 s a 429 Retry-After asks for, even above the backoff cap', async () => {
    const api = await serve(sequence([429], { 'retry-after': '2' }));
    const client = testClient(api.url, { retryMaxBackoffMs: 10 });
    await client.getDocument('/analytics/venue-devices-summary/v1/');
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(2_000);
    expect(client.stats.throttled).toBe(1);
    expect(client.stats.retries).toBe(1);
    await client.close();
  });

  it('reads Retry-After as an HTTP date', async () => {
    let expectedWaitMs = 0;
    const api = await serve((_req, res, index) => {
      if (index > 0) return sendJson(res, 200, singleDocument());
      // A whole second at least a second ahead: the header has no milliseconds.
      const retryAt = Math.ceil((Date.now() + 1_000) / 1000) * 1000;
      expectedWaitMs = retryAt - Date.now();
      sendJson(res, 503, { errors: [] }, { 'retry-after': new Date(retryAt).toUTCString() });
    });
    const client = testClient(api.url, { retryMaxBackoffMs: 10 });
    await client.getDocument('/x/');
    expect(api.requests).toHaveLength(2);
    expect(expectedWaitMs).toBeGreaterThanOrEqual(1_000);
    // Clocks of server and client are the same; allow for timer granularity only.
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(expectedWaitMs - 20);
    await client.close();
  });

  it('fails at once when Retry-After is longer than maxRetryAfterMs', async () => {
    const api = await serve(sequence([429], { 'retry-after': '600' }));
    const log = captureLog('debug');
    const client = testClient(api.url, { maxRetryAfterMs: 60_000, logger: log.logger });
    const error = await rejectionOf(client.getDocument('/x/'));
    // At once: no wait was scheduled (the client logs each one before it sleeps), no second attempt.
    expect(log.lines().filter((line) => line.msg === 'api retry')).toEqual([]);
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.retryAfterTooLong);
    expect(error.message).toContain('asks to wait 600 s');
    expect(error.details).toMatchObject({ status: 429, retryAfterMs: 600_000, retriable: true });
    expect(error.hint).toContain('api.maxRetryAfterMs');
    await client.close();
  });

  it('retries 500, 502, 503, 504 and 408, then succeeds', async () => {
    const api = await serve(sequence([500, 502, 503, 504, 408]));
    const client = testClient(api.url, { maxRetries: 5 });
    const document = await client.getDocument('/x/');
    expect(document.data).toMatchObject({ id: 'r-1' });
    expect(api.requests).toHaveLength(6);
    expect(client.stats).toMatchObject({ requests: 6, retries: 5, failures: 0 });
    await client.close();
  });

  it('gives up after maxRetries with a coded error carrying attempts, last status and cause', async () => {
    const api = await serve(sequence([503, 503, 503, 503, 503]));
    const client = testClient(api.url, { maxRetries: 2 });
    const error = await rejectionOf(client.getDocument('/analytics/x/?from=2026-01-01'));
    expect(api.requests).toHaveLength(3);
    expect(error.code).toBe(ApiErrorCode.retriesExhausted);
    expect(error.message).toContain('GET /analytics/x/?from=2026-01-01 failed after 3 attempts');
    expect(error.details).toMatchObject({ attempts: 3, status: 503, lastCode: ApiErrorCode.serverError, retriable: true });
    expect(error.cause).toMatchObject({ code: ApiErrorCode.serverError, status: 503 });
    expect(client.stats.failures).toBe(1);
    await client.close();
  });

  it('retries a connection reset', async () => {
    const api = await serve((req, res, index) => {
      if (index === 0) req.socket.resetAndDestroy();
      else sendJson(res, 200, singleDocument());
    });
    const client = testClient(api.url);
    await client.getDocument('/x/');
    expect(api.requests).toHaveLength(2);
    await client.close();
  });

  it('retries a refused connection, then reports it', async () => {
    const closed = await startServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const client = testClient(url, { maxRetries: 1 });
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(error.code).toBe(ApiErrorCode.retriesExhausted);
    expect(error.details.attempts).toBe(2);
    expect(expectApiError(error.cause).code).toBe(ApiErrorCode.network);
    expect(expectApiError(error.cause).message).toContain('ECONNREFUSED');
    await client.close();
  });

  it('retries a truncated body (less than Content-Length)', async () => {
    const api = await serve((req, res, index) => {
      if (index > 0) return sendJson(res, 200, singleDocument());
      res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': '500' });
      res.write('{"data":{"type":"x",');
      setTimeout(() => req.socket.destroy(), 10);
    });
    const client = testClient(api.url, { maxRetries: 0 });
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(expectApiError(error.cause).code).toBe(ApiErrorCode.badBody);
    expect(expectApiError(error.cause).message).toContain('truncated body');
    await client.getDocument('/x/');
    await client.close();
  });

  it('retries malformed JSON', async () => {
    const api = await serve((_req, res, index) => {
      if (index > 0) return sendJson(res, 200, singleDocument());
      res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      res.end('{"data": {"type": "venues", "id": "1", "attr');
    });
    const client = testClient(api.url);
    await client.getDocument('/x/');
    expect(api.requests).toHaveLength(2);
    expect(client.stats.retries).toBe(1);
    await client.close();
  });

  it('does not retry a page answered 200 (a captive portal, a proxy): it names the content type', async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Hotel Wi-Fi\n login</title></head><body>maintenance</body></html>');
    });
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(error).toMatchObject({ code: 'VENUE_API_CONTENT_TYPE', status: 200, details: { contentType: 'text/html', retriable: false } });
    expect(error.message).toBe(
      'GET /x/ answered 200 with Content-Type text/html and a body that is not JSON (a page titled "Hotel Wi-Fi login"), not the API\'s application/vnd.api+json',
    );
    expect(error.hint).toMatch(/captive portal/);
    expect(api.requests).toHaveLength(1);
    expect(client.stats.retries).toBe(0);
    await client.close();
  });

  it('reads JSON under a sloppy label, and refuses markup under a JSON label', async () => {
    const api = await serve((req, res) => {
      if (req.url === '/plain/') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(JSON.stringify(singleDocument()));
      }
      res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      res.end('  <html>proxy error</html>');
    });
    const client = testClient(api.url);
    await client.getDocument('/plain/');
    const error = await rejectionOf(client.getDocument('/markup/'));
    expect(error.code).toBe('VENUE_API_CONTENT_TYPE');
    expect(error.message).toMatch(/^GET \/markup\/ answered 200 with Content-Type application\/vnd\.api\+json and a body that is not JSON, /);
    expect(api.requests).toHaveLength(2);
    await client.close();
  });

  it('abandons a body that is slower than the deadline and retries', async () => {
    const api = await serve((_req, res, index) => {
      if (index > 0) return sendJson(res, 200, singleDocument());
      res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      res.write('{"data":');
      setTimeout(() => res.end('null}'), 3_000).unref();
    });
    const client = testClient(api.url, { timeoutMs: 300, maxRetries: 0 });
    const error = await rejectionOf(client.getDocument('/x/'));
    // A timeout, not the answer: had the client waited for the body's end (3 s), the attempt
    // would have ended with that body, valid JSON. However slow the machine, the 300 ms timer is
    // due first and fires first.
    expect(expectApiError(error.cause).code).toBe(ApiErrorCode.timeout);
    expect(expectApiError(error.cause).message).toContain('300 ms');
    await client.close();

    const retrying = testClient(api.url, { timeoutMs: 300, maxRetries: 2 });
    await retrying.getDocument('/x/');
    await retrying.close();
  });
});

describe('errors that are not retried', () => {
  it('a 401 costs exactly one request and names api.token', async () => {
    const api = await serve(sequence([401, 401, 401]));
    const client = testClient(api.url, { maxRetries: 6 });
    const error = await rejectionOf(client.getDocument('/core/venue-roles/?filter[venue]=v1'));
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.auth);
    expect(error.message).toContain('the API refused the token (401). Check api.token / VENUE_API_TOKEN.');
    expect(error.details).toMatchObject({ status: 401, retriable: false });
    // The token will not become valid mid-run: later calls fail without a request.
    const later = await rejectionOf(client.getDocument('/analytics/venue-users-summary/v1/'));
    expect(later).toMatchObject({ code: ApiErrorCode.auth, message: error.message });
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('a 403 is an auth error too', async () => {
    const api = await serve(sequence([403]));
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.auth);
    await client.close();
  });

  it('a 404 is not retried and names the path', async () => {
    const api = await serve(sequence([404, 404]));
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/analytics/venue-users-summary/abc/'));
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.notFound);
    expect(error.message).toContain('GET /analytics/venue-users-summary/abc/ returned 404');
    expect(error.hint).toContain('scope.venues');
    await client.close();
  });

  it('a 422 carries the JSON:API error detail', async () => {
    const api = await serve((_req, res) =>
      sendJson(res, 422, { errors: [{ title: 'Invalid filter', detail: 'from must be before to', source: { pointer: '/from' } }] }),
    );
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/x/?from=2026-02-01&to=2026-01-01'));
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.badRequest);
    expect(error.message).toContain('Invalid filter: from must be before to (at /from)');
    await client.close();
  });

  it('a redirect is not followed', async () => {
    const api = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.example/' });
      res.end();
    });
    const client = testClient(api.url);
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(api.requests).toHaveLength(1);
    expect(error.code).toBe(ApiErrorCode.redirect);
    expect(error.details.status).toBe(302);
    await client.close();
  });
});
