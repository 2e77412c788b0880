import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type RunningReceiver } from '../../src/receiver/index.js';
import { AUTH, capturedLogger, eventBody, post, readTables, tempDir, USER_1 } from './helpers.js';

const MAX_BODY = 4096;
let temp: ReturnType<typeof tempDir>;
let receiver: RunningReceiver;
let log: ReturnType<typeof capturedLogger>;
const warehousePath = (): string => join(temp.dir, 'warehouse.duckdb');

beforeAll(async () => {
  temp = tempDir();
  log = capturedLogger('debug');
  receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    authorization: AUTH,
    maxBodyBytes: MAX_BODY,
    journalDir: join(temp.dir, 'journal'),
    warehousePath: warehousePath(),
    logger: log.logger,
    mergeIntervalMs: 0,
  });
});

afterAll(async () => {
  await receiver?.close();
  temp?.cleanup();
});

const json = { 'content-type': 'application/json', authorization: AUTH };

function withUser(user: Record<string, unknown>): string {
  const body = JSON.parse(eventBody());
  body.data.user = user;
  return JSON.stringify(body);
}

describe('requests the receiver refuses', () => {
  const cases: readonly { name: string; status: number; send: () => ReturnType<typeof post>; field?: string }[] = [
    { name: 'no Authorization', status: 401, send: () => post(receiver.url, eventBody(), { headers: { 'content-type': 'application/json' } }) },
    {
      name: 'a wrong Authorization',
      status: 401,
      send: () => post(receiver.url, eventBody(), { headers: { ...json, authorization: 'Basic d3Jvbmc6d3Jvbmc=' } }),
    },
    { name: 'the right one plus a character', status: 401, send: () => post(receiver.url, eventBody(), { headers: { ...json, authorization: `${AUTH}x` } }) },
    {
      name: 'the right one minus a character',
      status: 401,
      send: () => post(receiver.url, eventBody(), { headers: { ...json, authorization: AUTH.slice(0, -1) } }),
    },
    {
      name: 'the right one in other letter case',
      status: 401,
      send: () => post(receiver.url, eventBody(), { headers: { ...json, authorization: AUTH.toLowerCase() } }),
    },
    {
      name: 'only the base64 part',
      status: 401,
      send: () => post(receiver.url, eventBody(), { headers: { ...json, authorization: AUTH.replace(/^Basic /, '') } }),
    },
    { name: 'a wrong Content-Type', status: 415, send: () => post(receiver.url, eventBody(), { headers: { ...json, 'content-type': 'text/plain' } }) },
    { name: 'no Content-Type', status: 415, send: () => post(receiver.url, eventBody(), { headers: { authorization: AUTH } }) },
    {
      name: 'a JSON-like but different media type',
      status: 415,
      send: () => post(receiver.url, eventBody(), { headers: { ...json, 'content-type': 'application/json-patch+json' } }),
    },
    {
      name: 'a Content-Length over maxBodyBytes',
      status: 413,
      send: () => post(receiver.url, eventBody({ email: `${'a'.repeat(MAX_BODY)}@example.com` })),
    },
    {
      name: 'a chunked body that grows over maxBodyBytes',
      status: 413,
      send: () => post(receiver.url, undefined, { headers: json, chunks: Array.from({ length: 64 }, () => Buffer.alloc(1024, 0x20)) }),
    },
    { name: 'malformed JSON', status: 400, send: () => post(receiver.url, '{"data": {"user": ') },
    { name: 'a body that is not UTF-8', status: 400, send: () => post(receiver.url, Buffer.from(eventBody().replace('Ana', 'An\u00e9a'), 'latin1')) },
    { name: 'an empty body', status: 400, send: () => post(receiver.url, '') },
    { name: 'a missing user id', status: 400, field: 'data.user.id', send: () => post(receiver.url, withUser({ email: 'x@example.com' })) },
    { name: 'a user id that is no UUID', status: 400, field: 'data.user.id', send: () => post(receiver.url, withUser({ id: 'user-1' })) },
    { name: 'a wrong type', status: 400, field: 'data.user.is-subscribed', send: () => post(receiver.url, withUser({ id: USER_1, 'is-subscribed': 'yes' })) },
    { name: 'a missing venue', status: 400, field: 'data.venue', send: () => post(receiver.url, JSON.stringify({ data: { user: { id: USER_1 } } })) },
    { name: 'a body that is not an object', status: 400, field: '(root)', send: () => post(receiver.url, '[1, 2]') },
  ];

  for (const c of cases) {
    it(`answers ${c.status} to ${c.name}`, async () => {
      const answer = await c.send();
      expect(answer.status).toBe(c.status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const body = answer.json();
      expect(typeof body.error?.code).toBe('string');
      if (c.field) {
        expect(body.error?.message).toContain(`${c.field}: `);
        expect(body.error?.fields?.map((f) => f.path)).toContain(c.field);
      }
      expect(answer.body).not.toContain(AUTH.replace(/^Basic /, ''));
    });
  }

  it('names the field and the reason (data.user.id: must be a UUID)', async () => {
    const answer = await post(receiver.url, withUser({ id: 'nope', email: 42 }));
    expect(answer.status).toBe(400);
    expect(answer.json().error?.message).toBe('data.user.id: must be a UUID; data.user.email: must be a string');
  });

  it('answers 401 with a Basic challenge, 404 and 405 for other routes', async () => {
    expect((await post(receiver.url, eventBody(), { headers: { 'content-type': 'application/json' } })).headers['www-authenticate']).toMatch(/^Basic /);
    expect((await post(receiver.url, eventBody(), { path: '/users/x' })).status).toBe(404);
    expect((await post(receiver.url, eventBody(), { path: '/user' })).status).toBe(404);
    expect((await post(receiver.url, eventBody(), { path: '/other/' })).status).toBe(404);
    const get = await post(receiver.url, undefined, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('stored nothing of any refused request', async () => {
    expect(receiver.stats.accepted).toBe(0);
    expect(receiver.stats.journal.records).toBe(0);
    const merge = await receiver.mergeNow();
    expect(merge).toMatchObject({ status: 'merged', records: 0 });
    const tables = await readTables(warehousePath());
    expect(tables.events).toEqual([]);
    expect(tables.users).toEqual([]);
  });
});

describe('an accepted event', () => {
  it('is answered 200 with its event id, also with a charset parameter', async () => {
    const answer = await post(receiver.url, eventBody(), { headers: { ...json, 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ status: 'accepted', event_id: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('keeps the credential out of the logs, refused or accepted', async () => {
    await post(receiver.url, eventBody(), { headers: { ...json, authorization: `${AUTH}-wrong` } });
    await post(receiver.url, eventBody({ visits: 9 }));
    const text = log.lines();
    expect(text).toContain('"status":401');
    expect(text).toContain('"status":200');
    expect(text).not.toContain(AUTH);
    expect(text).not.toContain(AUTH.replace(/^Basic /, ''));
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});
