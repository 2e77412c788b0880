import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { sendEncoded } from './hostile-bodies.js';
import { expectApiError, serverPerTest, singleDocument, testClient } from './helpers.js';

const serve = serverPerTest();
const documentBytes = Buffer.from(JSON.stringify(singleDocument('compressed')));

/** One request answered with `body` under `encoding`; the document or the error, and the request count. */
async function answer(body: Buffer, encoding: string | undefined, maxRetries = 2) {
  const api = await serve((_req, res) => sendEncoded(res, body, encoding));
  const client = testClient(api.url, { maxRetries });
  const result = await client.getDocument('/analytics/venue-users-summary/v1/').then(
    (document) => ({ document, error: undefined }),
    (error: unknown) => ({ document: undefined, error: expectApiError(error) }),
  );
  const bytes = client.stats.bytes;
  await client.close();
  return { ...result, requests: api.requests, bytes };
}

describe('Content-Encoding', () => {
  it('asks for gzip and deflate, the encodings it decodes', async () => {
    const { requests } = await answer(documentBytes, undefined);
    expect(requests[0]!.headers['accept-encoding']).toBe('gzip, deflate');
  });

  it('decodes gzip, x-gzip, deflate (zlib and raw) and identity, counting the bytes as sent', async () => {
    const cases: [string | undefined, Buffer][] = [
      ['gzip', gzipSync(documentBytes)],
      ['x-gzip', gzipSync(documentBytes)],
      ['GZIP', gzipSync(documentBytes)],
      ['deflate', deflateSync(documentBytes)],
      ['deflate', deflateRawSync(documentBytes)],
      ['identity', documentBytes],
      [undefined, documentBytes],
    ];
    for (const [encoding, body] of cases) {
      const { document, error, bytes } = await answer(body, encoding);
      expect(error, `${encoding}: ${error?.message}`).toBeUndefined();
      expect(document?.data).toMatchObject({ id: 'compressed' });
      expect(bytes).toBe(body.length);
    }
  });

  it('refuses an encoding it did not ask for, naming it, without retrying', async () => {
    const cases: [string, Buffer][] = [
      ['br', brotliCompressSync(documentBytes)],
      ['zstd', documentBytes],
      ['gzip, gzip', gzipSync(gzipSync(documentBytes))],
    ];
    for (const [encoding, body] of cases) {
      const { error, requests } = await answer(body, encoding);
      expect(error?.code).toBe(ApiErrorCode.contentEncoding);
      expect(error?.message).toBe(
        `GET /analytics/venue-users-summary/v1/ answered with Content-Encoding "${encoding}", which venue-etl did not ask for (it asks for gzip, deflate) and does not decode`,
      );
      expect(error?.hint).toContain('Accept-Encoding');
      expect(error?.details).toMatchObject({ retriable: false, contentEncoding: encoding });
      expect(requests).toHaveLength(1);
    }
  });

  it('names a gzip body that Content-Encoding does not announce, instead of calling it malformed JSON', async () => {
    const { error, requests } = await answer(gzipSync(documentBytes), undefined);
    expect(error?.code).toBe(ApiErrorCode.contentEncoding);
    expect(error?.message).toContain('answered with a gzip-compressed body that Content-Encoding does not announce');
    expect(requests).toHaveLength(1);
  });

  it('a corrupt gzip stream is a broken body: retried, then failed naming gzip', async () => {
    const whole = gzipSync(documentBytes);
    const corrupt = Buffer.from(whole);
    corrupt.fill(0xff, 12, 24);
    const cut = whole.subarray(0, whole.length - 10);
    for (const body of [corrupt, cut]) {
      const { error, requests } = await answer(body, 'gzip', 2);
      expect(requests).toHaveLength(3);
      expect(error?.code).toBe(ApiErrorCode.retriesExhausted);
      expect(error?.details).toMatchObject({ lastCode: ApiErrorCode.badBody });
      expect(error?.cause).toMatchObject({ code: ApiErrorCode.badBody, retriable: true });
      expect(expectApiError(error?.cause).message).toMatch(/^GET \/analytics\/venue-users-summary\/v1\/ returned a broken gzip body \(.+\)$/);
    }
  });

  it('malformed JSON inside a good gzip stream says it was decoded from gzip', async () => {
    const { error } = await answer(gzipSync(Buffer.from('{"data": ')), 'gzip', 0);
    expect(error?.code).toBe(ApiErrorCode.retriesExhausted);
    expect(expectApiError(error?.cause).message).toContain('returned malformed JSON (a gzip-encoded body, decoded)');
  });
});
