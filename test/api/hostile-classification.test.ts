/**
 * How each hostile answer is classified, by the one retry loop (transient or not) and by the
 * run (fatal for every slice, or for its own slice only).
 */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { ApiErrorCode, type ApiClient } from '../../src/api/index.js';
import { isFatalForRun } from '../../src/runner/fatal.js';
import { gzipBomb, MiB, sendEncoded, streamBody } from './hostile-bodies.js';
import { listDocument, rejectionOf, resource, sendJson, serverPerTest, singleDocument, testClient, type Handler } from './helpers.js';

const serve = serverPerTest();
const MAX_RETRIES = 2;
const documentBytes = Buffer.from(JSON.stringify(singleDocument()));

interface Case {
  readonly name: string;
  readonly handler: (origin: () => string, foreign: string) => Handler;
  readonly list?: boolean;
  /** The code callers see, and the code of the last attempt when it was retried. */
  readonly code: string;
  readonly lastCode?: string;
}

const CASES: readonly Case[] = [
  { name: 'a body over the limit', handler: () => (_req, res) => void streamBody(res, 8 * MiB), code: ApiErrorCode.tooLarge },
  { name: 'a gzip bomb', handler: () => (_req, res) => sendEncoded(res, gzipBomb(8 * MiB), 'gzip'), code: ApiErrorCode.tooLarge },
  {
    name: 'an encoding not asked for (br)',
    handler: () => (_req, res) => sendEncoded(res, brotliCompressSync(documentBytes), 'br'),
    code: ApiErrorCode.contentEncoding,
  },
  { name: 'unlabelled gzip', handler: () => (_req, res) => sendEncoded(res, gzipSync(documentBytes), undefined), code: ApiErrorCode.contentEncoding },
  {
    name: 'a corrupt gzip stream (transient)',
    handler: () => (_req, res) => sendEncoded(res, gzipSync(documentBytes).subarray(0, 20), 'gzip'),
    code: ApiErrorCode.retriesExhausted,
    lastCode: ApiErrorCode.badBody,
  },
  { name: 'a redirect without Location', handler: () => (_req, res) => res.writeHead(302).end(), code: ApiErrorCode.redirect },
  {
    name: 'a redirect to another origin',
    handler: (_origin, foreign) => (_req, res) => res.writeHead(301, { location: `${foreign}/x/` }).end(),
    code: ApiErrorCode.redirect,
  },
  {
    name: 'a looping links.next',
    list: true,
    handler: (origin) => (_req, res, index) =>
      sendJson(res, 200, listDocument([resource('a')], { next: `${origin()}/l/?page[number]=${index + 2}&page[t]=${index}` })),
    code: ApiErrorCode.paginationLoop,
  },
  {
    name: 'a links.next past api.maxPages',
    list: true,
    handler: (origin) => (_req, res, index) => sendJson(res, 200, listDocument([resource(`r${index}`)], { next: `${origin()}/l/?page[number]=${index + 2}` })),
    code: ApiErrorCode.tooManyPages,
  },
  {
    name: 'a foreign links.next',
    list: true,
    handler: (_origin, foreign) => (_req, res) => sendJson(res, 200, listDocument([resource('a')], { next: `${foreign}/l/?page[number]=2` })),
    code: ApiErrorCode.foreignLink,
  },
];

async function request(client: ApiClient, list: boolean): Promise<void> {
  if (!list) {
    await client.getDocument('/x/');
    return;
  }
  for await (const _page of client.paginate('/l/', { pageSize: 1 })) {
    // drain
  }
}

it.each(CASES)('$name: retried only when transient, and fails its own slice, not the run', async (c) => {
  const foreign = await serve((_req, res) => sendJson(res, 200, singleDocument()));
  let origin = '';
  const api = await serve(c.handler(() => origin, foreign.url));
  origin = api.url;
  const client = testClient(api.url, { maxRetries: MAX_RETRIES, maxResponseBytes: MiB, maxPages: 5 });
  const error = await rejectionOf(request(client, c.list ?? false));
  expect(error.code).toBe(c.code);
  if (c.lastCode) {
    expect(api.requests).toHaveLength(MAX_RETRIES + 1);
    expect(error.details.lastCode).toBe(c.lastCode);
  } else {
    expect(error.details.retriable).toBe(false);
    // A list fetches its pages; a single document is asked for once.
    expect(api.requests).toHaveLength(c.code === ApiErrorCode.tooManyPages ? 5 : c.code === ApiErrorCode.paginationLoop ? 2 : 1);
  }
  expect(isFatalForRun(error)).toBe(false);
  expect(foreign.requests).toHaveLength(0);
  await client.close();
});

it('a refused token still stops the run', async () => {
  const api = await serve((_req, res) => sendJson(res, 401, { errors: [] }));
  const client = testClient(api.url);
  expect(isFatalForRun(await rejectionOf(client.getDocument('/x/')))).toBe(true);
  await client.close();
});
