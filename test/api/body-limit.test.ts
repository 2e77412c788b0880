import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../src/api/client.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { gzipBomb, MiB, sendEncoded, streamBody, type StreamedBody } from './hostile-bodies.js';
import { rejectionOf, sendJson, serverPerTest, singleDocument, testClient } from './helpers.js';

const serve = serverPerTest();

describe('api.maxResponseBytes', () => {
  it('stops reading a huge body at the limit and closes the connection, without retrying', async () => {
    let body: StreamedBody | undefined;
    const api = await serve((_req, res) => {
      body = streamBody(res, 64 * MiB);
    });
    const client = testClient(api.url, { maxResponseBytes: MiB, maxRetries: 3 });
    const error = await rejectionOf(client.getDocument('/analytics/venue-users-history/v1/?from=2026-01-01&to=2026-01-31'));
    expect(error.code).toBe(ApiErrorCode.tooLarge);
    expect(error.message).toBe(
      'GET /analytics/venue-users-history/v1/?from=2026-01-01&to=2026-01-31 answered with more than 1 MiB (api.maxResponseBytes); reading stopped there',
    );
    expect(error.hint).toContain('Raise api.maxResponseBytes (now 1048576)');
    expect(error.details).toMatchObject({ retriable: false, maxResponseBytes: MiB });
    expect(api.requests).toHaveLength(1);
    await body!.done;
    // The client hung up: the server could hand over only what the socket buffers held.
    expect(body!.written).toBeLessThan(16 * MiB);
    expect(client.stats.failures).toBe(1);
    await client.close();
  });

  it('refuses a Content-Length beyond the limit before reading the body', async () => {
    let body: StreamedBody | undefined;
    const api = await serve((_req, res) => {
      body = streamBody(res, 64 * MiB, { declare: true });
    });
    const client = testClient(api.url, { maxResponseBytes: MiB });
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(error.code).toBe(ApiErrorCode.tooLarge);
    expect(error.message).toContain(`(Content-Length: ${64 * MiB + 2}); nothing was read`);
    expect(api.requests).toHaveLength(1);
    await body!.done;
    expect(body!.written).toBeLessThan(16 * MiB);
    await client.close();
  });

  it('reads a body of exactly the limit', async () => {
    const text = JSON.stringify(singleDocument());
    const padded = `${text.slice(0, -1)},"meta":{"padding":"${' '.repeat(4096 - text.length - 22)}"}}`;
    expect(Buffer.byteLength(padded)).toBe(4096);
    const api = await serve((_req, res) => sendEncoded(res, Buffer.from(padded), undefined));
    const client = testClient(api.url, { maxResponseBytes: 4096 });
    const document = await client.getDocument('/x/');
    expect(document.data).toMatchObject({ id: 'r-1' });
    const smaller = testClient(api.url, { maxResponseBytes: 4095 });
    expect((await rejectionOf(smaller.getDocument('/x/'))).code).toBe(ApiErrorCode.tooLarge);
    await Promise.all([client.close(), smaller.close()]);
  });

  it('counts decoded bytes: a gzip bomb stops at the limit, naming the encoding', async () => {
    const bomb = gzipBomb(64 * MiB);
    const api = await serve((_req, res) => sendEncoded(res, bomb, 'gzip'));
    const client = testClient(api.url, { maxResponseBytes: MiB });
    const error = await rejectionOf(client.getDocument('/x/'));
    expect(bomb.length).toBeLessThan(MiB);
    expect(error.code).toBe(ApiErrorCode.tooLarge);
    expect(error.message).toMatch(/more than 1 MiB \(api\.maxResponseBytes\) once decoded from gzip \([\d.]+ KiB as sent\); decoding stopped there/);
    expect(error.details).toMatchObject({ retriable: false, contentEncoding: 'gzip' });
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('an error answer with a huge body keeps its status: a 503 is still retried', async () => {
    const bodies: StreamedBody[] = [];
    const api = await serve((_req, res, index) => {
      if (index < 2) bodies.push(streamBody(res, 64 * MiB, { status: 503 }));
      else sendJson(res, 200, singleDocument());
    });
    const client = testClient(api.url, { maxResponseBytes: 16 * MiB, maxRetries: 3 });
    const document = await client.getDocument('/x/');
    expect(document.data).toMatchObject({ id: 'r-1' });
    expect(api.requests).toHaveLength(3);
    await Promise.all(bodies.map((body) => body.done));
    // Only the start of an error answer is read (its detail), not up to the limit.
    for (const body of bodies) expect(body.written).toBeLessThan(16 * MiB);
    await client.close();
  });

  it('defaults to 32 MiB, the same in the client and in the config', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * MiB);
    const config = ConfigSchema.parse({ api: { baseUrl: 'http://127.0.0.1:1', token: 'abcd' } });
    expect(config.api?.maxResponseBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
  });
});
