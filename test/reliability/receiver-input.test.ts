/**
 * Receiver input: thousands of seeded mutations of a valid upsert event (fields dropped, nulled,
 * retyped; bad UUIDs, dates and instants; huge strings, deep nesting, odd Unicode, invalid UTF-8,
 * duplicate keys, truncated JSON) and bad requests (credentials, content types, sizes), sent to
 * the built receiver in a child process. Each case knows its answer from docs/receiver.md and the
 * receiver README (401, 415, 413, 400 naming the field, else 200). Afterwards
 * the journal is merged: exactly the accepted bodies are stored, and nothing else.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, queryWarehouse, seededRandom } from '../e2e/harness.js';
import { budget, reportFigure, reportTable, size } from './figures.js';
import { postRaw, startReceiverChild, type ReceiverChild, type Reply } from './receiver-child.js';

const REQUESTS = size(3000, 20_000);
const MAX_BODY = 64 * 1024;
const AUTH = `Basic ${Buffer.from('platform:Zx9-receiver-pass').toString('base64')}`;
const JSON_HEADERS = { 'content-type': 'application/json', authorization: AUTH };

let dir: string;
let receiver: ReceiverChild;
beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-receiver-input-'));
  receiver = await startReceiverChild({
    authorization: AUTH,
    journalDir: join(dir, 'journal'),
    warehousePath: join(dir, 'warehouse.duckdb'),
    maxBodyBytes: MAX_BODY,
    mergeIntervalMs: 0,
    logLevel: 'info',
  });
});
afterAll(async () => {
  await receiver?.kill();
  rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------
// The event and its fields (docs/api.md §6; src/receiver/README.md, "Which fields are required")
// ---------------------------------------------------------------------------------------

type FieldType = 'uuid' | 'text' | 'flag' | 'date' | 'instant' | 'count' | 'texts';
const FIELDS: Readonly<Record<string, FieldType>> = {
  'data.user.id': 'uuid',
  'data.user.email': 'text',
  'data.user.email-confirmed': 'flag',
  'data.user.first-name': 'text',
  'data.user.last-name': 'text',
  'data.user.phone': 'text',
  'data.user.phone-confirmed': 'flag',
  'data.user.language': 'text',
  'data.user.birth-date': 'date',
  'data.user.gender': 'text',
  'data.user.is-subscribed': 'flag',
  'data.venue.id': 'uuid',
  'data.venue.name': 'text',
  'data.venue.address': 'text',
  'data.venue.city': 'text',
  'data.venue.country': 'text',
  'data.venue.created-at': 'instant',
  'data.user-venue-history.visits-count': 'count',
  'data.user-venue-history.first-visit-on': 'instant',
  'data.user-venue-history.last-visit-on': 'instant',
  'data.user-venue-agreements.accepted-date': 'instant',
  'data.user-venue-agreements.texts': 'texts',
};
const REQUIRED = new Set(['data.user.id', 'data.venue.id']);
const OBJECTS = ['data', 'data.user', 'data.venue', 'data.user-venue-history', 'data.user-venue-agreements'];
const REQUIRED_OBJECTS = new Set(['data', 'data.user', 'data.venue']);

/** Values of the wrong type (or format) for each field type: each must be refused. */
const WRONG: Readonly<Record<FieldType, readonly unknown[]>> = {
  uuid: [
    42,
    true,
    [],
    {},
    '',
    'user-1',
    '0d6f7d0e6a8f4c439e1a6a1b2c3d4e01',
    '{0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01}',
    '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e0',
    '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e0g',
    ' 0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01',
    'urn:uuid:0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01',
    '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01\n',
  ],
  text: [42, 0, true, false, [], {}, ['a'], { a: 1 }],
  flag: ['true', 'false', 1, 0, 'yes', [], {}],
  date: [19900405, true, '1990-02-30', '1990-13-01', '90-04-05', '1990/04/05', '1990-04-05T00:00:00Z', 'yesterday', ''],
  instant: [
    1_767_261_600,
    true,
    [],
    '2026-01-10 25:00:00',
    '2026-02-30T10:00:00Z',
    '2026-01-10T10:00:00+24:00',
    'Jan 10 2026',
    '10/01/2026',
    '',
    '2026-01-10T10:60:00Z',
    // The offset carries them out of the years 0000–9999: no warehouse timestamp text for them.
    '9999-12-31T23:59:59-23:59',
    '0000-01-01T00:00:00+01:00',
  ],
  count: ['3', 3.5, -1, true, [], {}, 1e300, Number.MAX_SAFE_INTEGER + 2],
  texts: ['I accept.', 42, [1], [null], [['a']], { 0: 'a' }, true],
};

/** Values that must be accepted (and stored as sent) for each field type. */
const RIGHT: Readonly<Record<FieldType, readonly unknown[]>> = {
  uuid: ['0D6F7D0E-6A8F-4C43-9E1A-6A1B2C3D4E01', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  text: [
    '',
    'Zoë Łukasiewicz',
    '山田 太郎',
    '👩‍👩‍👧 émoji',
    'שלום',
    'a\u0000b',
    'x'.repeat(20_000),
    '"quoted" \\ back\\slash',
    'line\nbreak\ttab',
    "Robert'); DROP TABLE users;--",
  ],
  flag: [true, false],
  date: ['1900-01-01', '2000-02-29', '2099-12-31', '0001-01-01', '9999-12-31'],
  instant: [
    '2026-01-10T10:00:00Z',
    '2026-01-10T10:00:00.123456+02:00',
    '2026-01-10T10:00:00',
    '2026-01-10',
    '2026-01-10t10:00:00z',
    '2026-01-10 10:00',
    '1970-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999Z',
    '9999-12-31T10:00:00-13:00',
    '0001-01-01T00:00:00+01:00',
  ],
  count: [0, 1, 2_147_483_648, Number.MAX_SAFE_INTEGER],
  texts: [[], ['I accept.'], ['a', 'b', 'c'], Array.from({ length: 500 }, (_, i) => `text ${i}`)],
};

/** A JSON object of an event, changed freely by the cases below. */
type JsonObject = Record<string, unknown>;
interface EventBody extends JsonObject {
  data: JsonObject & { user: JsonObject; venue: JsonObject; 'user-venue-history': JsonObject; 'user-venue-agreements': JsonObject };
}
const isJsonObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object';

let serial = 0;
/** A valid full-form event; each call varies the ids and counts so bodies differ. */
function validEvent(random: () => number): EventBody {
  serial += 1;
  const hex = (n: number) => n.toString(16).padStart(12, '0');
  return {
    data: {
      user: {
        id: `0d6f7d0e-6a8f-4c43-9e1a-${hex(Math.floor(random() * 40))}`,
        email: 'ana@example.com',
        'email-confirmed': true,
        'first-name': 'Ana',
        'last-name': 'Kowalska',
        phone: '+48123456789',
        'phone-confirmed': false,
        language: 'pl',
        'birth-date': '1990-04-05',
        gender: 'female',
        'is-subscribed': true,
      },
      venue: {
        id: `7a1e2b3c-1111-4aaa-8bbb-${hex(Math.floor(random() * 8))}`,
        name: 'Cafe Central',
        address: 'Rynek 1',
        city: 'Krakow',
        country: 'PL',
        'created-at': '2024-03-01T09:30:00.123456+01:00',
      },
      'user-venue-history': {
        'visits-count': serial,
        'first-visit-on': '2026-01-01T10:00:00+00:00',
        'last-visit-on': `2026-01-10T18:00:${String(serial % 60).padStart(2, '0')}+00:00`,
      },
      'user-venue-agreements': { 'accepted-date': '2026-01-01T10:00:05+00:00', texts: ['I accept the terms of use.'] },
    },
  };
}

const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('.'));
const keyOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1);
function objectAt(event: JsonObject, path: string): JsonObject | undefined {
  let current: unknown = event;
  for (const key of path.split('.')) current = isJsonObject(current) ? current[key] : undefined;
  return isJsonObject(current) ? current : undefined;
}

// ---------------------------------------------------------------------------------------
// Cases: a request and the answer it must get
// ---------------------------------------------------------------------------------------

interface Case {
  readonly family: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly status: number;
  /** For 400: paths the error must name (empty: only that it is 400). */
  readonly fields: readonly string[];
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const ok = (family: string, event: unknown): Case => ({ family, body: Buffer.from(JSON.stringify(event)), headers: JSON_HEADERS, status: 200, fields: [] });
const bad = (family: string, body: string | Buffer, fields: readonly string[] = []): Case => ({
  family,
  body: typeof body === 'string' ? Buffer.from(body) : body,
  headers: JSON_HEADERS,
  status: 400,
  fields,
});

function fieldMutation(random: () => number): Case {
  const event = validEvent(random);
  // One to three leaf fields, each dropped, nulled, set right or set wrong.
  const paths = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, Object.keys(FIELDS))))];
  const invalid: string[] = [];
  const ops: string[] = [];
  for (const path of paths) {
    const parent = objectAt(event, parentOf(path))!;
    const type = FIELDS[path]!;
    const op = pick(random, ['drop', 'null', 'right', 'wrong', 'wrong']);
    ops.push(op);
    if (op === 'drop') delete parent[keyOf(path)];
    else if (op === 'null') parent[keyOf(path)] = null;
    else if (op === 'right') parent[keyOf(path)] = pick(random, RIGHT[type]);
    else parent[keyOf(path)] = pick(random, WRONG[type]);
    if (op === 'wrong' || (REQUIRED.has(path) && op !== 'right')) invalid.push(path);
  }
  const family = `field ${[...new Set(ops)].sort().join('+')}`;
  return invalid.length === 0 ? ok(family, event) : { ...bad(family, JSON.stringify(event), invalid) };
}

function objectMutation(random: () => number): Case {
  const event = validEvent(random);
  const path = pick(random, OBJECTS);
  const parent = path === 'data' ? event : objectAt(event, parentOf(path))!;
  const key = keyOf(path);
  const op = pick(random, ['drop', 'null', 'wrong', 'list', 'empty']);
  if (op === 'drop') delete parent[key];
  else if (op === 'null') parent[key] = null;
  else if (op === 'wrong') parent[key] = pick(random, ['x', 42, true, [1, 2]]);
  else if (op === 'list') parent[key] = [parent[key], parent[key]];
  else parent[key] = {};
  const family = `object ${op}`;
  if (path === 'data.user-venue-agreements') {
    // One acceptance or a list of them; an empty object is an acceptance without fields.
    if (op === 'wrong' && Array.isArray(parent[key])) return bad(family, JSON.stringify(event), [`${path}[0]`]);
    return op === 'wrong' ? bad(family, JSON.stringify(event), [path]) : ok(family, event);
  }
  if (op === 'list') return bad(family, JSON.stringify(event), [path]);
  if (op === 'wrong') return bad(family, JSON.stringify(event), [path]);
  if (op === 'empty' && path === 'data') return bad(family, JSON.stringify(event), ['data.user', 'data.venue']);
  if (op === 'empty' && REQUIRED_OBJECTS.has(path)) return bad(family, JSON.stringify(event), [`${path}.id`]);
  if (REQUIRED_OBJECTS.has(path)) return bad(family, JSON.stringify(event), [path]);
  return ok(family, event);
}

function extraFields(random: () => number): Case {
  const event = validEvent(random);
  const where = pick(random, [event, event.data, event.data.user, event.data.venue, event.data['user-venue-history']]);
  const kind = pick(random, ['plain', 'huge', 'deep', 'wide', 'unicode']);
  if (kind === 'plain') where[`extra-${serial}`] = pick(random, [1, 'two', null, [3], { four: 4 }]);
  if (kind === 'huge') where.note = 'n'.repeat(MAX_BODY - 2000);
  if (kind === 'wide') where.many = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));
  if (kind === 'unicode') where['ünï-cødé 🔑'] = '\u2028\u2029\uFEFF\u200B';
  if (kind === 'deep') {
    // Written as text: JSON.stringify itself recurses too deep for this.
    const depth = 1000 + Math.floor(random() * 29_000);
    const text = JSON.stringify(event).replace('"first-name":', `"nested":${'['.repeat(depth)}1${']'.repeat(depth)},"first-name":`);
    return { ...ok(`extra ${kind}`, {}), body: Buffer.from(text) };
  }
  return ok(`extra ${kind}`, event);
}

function rawMutation(random: () => number): Case {
  const text = JSON.stringify(validEvent(random));
  const kind = pick(random, [
    'truncate',
    'invalid-utf8',
    'overlong-utf8',
    'lone-surrogate',
    'duplicate-key-ok',
    'duplicate-key-bad',
    'trailing-garbage',
    'not-object',
    'bom',
    'empty',
    'nul-escape',
  ]);
  const family = `raw ${kind}`;
  switch (kind) {
    case 'truncate':
      return bad(family, text.slice(0, 1 + Math.floor(random() * (text.length - 2))));
    case 'invalid-utf8': {
      // "Ana" written with a byte that is not UTF-8 (Latin-1 é): not JSON text (RFC 8259 §8.1).
      const [before, after] = text.split('"Ana"') as [string, string];
      return bad(family, Buffer.concat([Buffer.from(`${before}"An`), Buffer.from([0xe9]), Buffer.from(`a"${after}`)]));
    }
    case 'overlong-utf8': {
      const [before, after] = text.split('"Ana"') as [string, string];
      return bad(family, Buffer.concat([Buffer.from(`${before}"A`), Buffer.from([0xc0, 0xae]), Buffer.from(`a"${after}`)]));
    }
    case 'lone-surrogate':
      // Valid JSON grammar, but no Unicode text: it cannot be stored as sent.
      return bad(family, text.replace('"Ana"', '"An\\ud800a"'), ['data.user.first-name']);
    case 'nul-escape':
      return { ...ok(family, {}), body: Buffer.from(text.replace('"Ana"', '"An\\u0000a"')) };
    case 'duplicate-key-ok':
      return { ...ok(family, {}), body: Buffer.from(text.replace('"first-name":"Ana"', '"first-name":"Anna","first-name":"Ana"')) };
    case 'duplicate-key-bad':
      return bad(family, text.replace('"first-name":"Ana"', '"first-name":"Ana","first-name":7'), ['data.user.first-name']);
    case 'trailing-garbage':
      return bad(family, `${text}}`);
    case 'not-object':
      return bad(family, pick(random, ['[]', '"event"', '42', 'null', 'true', '[{"data":{}}]']), ['(root)']);
    case 'bom':
      return bad(family, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    default:
      return bad(family, '');
  }
}

function headerCase(random: () => number): Case {
  const body = Buffer.from(JSON.stringify(validEvent(random)));
  const base = (family: string, headers: Record<string, string | undefined>, status: number): Case => ({ family, body, headers, status, fields: [] });
  const kind = pick(random, [
    'auth-missing',
    'auth-wrong',
    'auth-short',
    'auth-prefix',
    'auth-suffix',
    'auth-case',
    'auth-space',
    'auth-bearer',
    'auth-bare',
    'ct-missing',
    'ct-text',
    'ct-form',
    'ct-patch',
    'ct-list',
    'ct-ok-charset',
    'ct-ok-case',
    'auth-and-ct',
  ]);
  const ct = 'application/json';
  switch (kind) {
    case 'auth-missing':
      return base(kind, { 'content-type': ct }, 401);
    case 'auth-wrong':
      return base(kind, { 'content-type': ct, authorization: `Basic ${Buffer.from('platform:guess').toString('base64')}` }, 401);
    case 'auth-short':
      return base(kind, { 'content-type': ct, authorization: 'B' }, 401);
    case 'auth-prefix':
      return base(kind, { 'content-type': ct, authorization: AUTH.slice(0, 1 + Math.floor(random() * (AUTH.length - 1))) }, 401);
    case 'auth-suffix':
      return base(kind, { 'content-type': ct, authorization: `${AUTH}=` }, 401);
    case 'auth-case':
      return base(kind, { 'content-type': ct, authorization: AUTH.toUpperCase() }, 401);
    case 'auth-space':
      return base(kind, { 'content-type': ct, authorization: AUTH.replace(' ', '  ') }, 401);
    case 'auth-bearer':
      return base(kind, { 'content-type': ct, authorization: AUTH.replace('Basic', 'Bearer') }, 401);
    case 'auth-bare':
      return base(kind, { 'content-type': ct, authorization: AUTH.replace('Basic ', '') }, 401);
    case 'ct-missing':
      return base(kind, { authorization: AUTH }, 415);
    case 'ct-text':
      return base(kind, { authorization: AUTH, 'content-type': 'text/plain' }, 415);
    case 'ct-form':
      return base(kind, { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' }, 415);
    case 'ct-patch':
      return base(kind, { authorization: AUTH, 'content-type': 'application/json-patch+json' }, 415);
    case 'ct-list':
      return base(kind, { authorization: AUTH, 'content-type': 'application/json, text/plain' }, 415);
    case 'ct-ok-charset':
      return base(kind, { authorization: AUTH, 'content-type': 'application/json; charset=utf-8' }, 200);
    case 'ct-ok-case':
      return base(kind, { authorization: AUTH, 'content-type': 'Application/JSON' }, 200);
    // Credentials are checked first: a wrong one is 401 whatever else is wrong.
    default:
      return { family: kind, body: Buffer.from('{'), headers: { 'content-type': 'text/plain' }, status: 401, fields: [] };
  }
}

function sizeCase(random: () => number): Case {
  const event = validEvent(random);
  const over = random() < 0.5;
  event.data.user['first-name'] = 'x'.repeat(over ? MAX_BODY + Math.floor(random() * 4 * MAX_BODY) : MAX_BODY - 1500);
  return over ? { family: 'size over', body: Buffer.from(JSON.stringify(event)), headers: JSON_HEADERS, status: 413, fields: [] } : ok('size under', event);
}

function generate(count: number): Case[] {
  const random = seededRandom(606);
  const makers: [number, (r: () => number) => Case][] = [
    [40, fieldMutation],
    [12, objectMutation],
    [10, extraFields],
    [18, rawMutation],
    [14, headerCase],
    [6, sizeCase],
  ];
  const total = makers.reduce((n, [w]) => n + w, 0);
  return Array.from({ length: count }, () => {
    let r = random() * total;
    for (const [weight, make] of makers) {
      r -= weight;
      if (r < 0) return make(random);
    }
    return fieldMutation(random);
  });
}

// ---------------------------------------------------------------------------------------

interface Result {
  readonly c: Case;
  readonly reply?: Reply;
  readonly error?: string;
}

it(
  'answers every mutated or malformed request as docs/receiver.md says, never 5xx, never crashes, stores only accepted events',
  async () => {
    const cases = generate(REQUESTS);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const results: Result[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          try {
            results.push({ c, reply: await postRaw(receiver.url, c.body, { headers: c.headers, agent }) });
          } catch (error) {
            results.push({ c, error: (error as Error).message });
          }
        }
      }),
    );
    agent.destroy();
    const crashed = receiver.child.exitCode !== null || receiver.child.signalCode !== null;

    const wrong = results.filter((r) => r.reply?.status !== r.c.status);
    const unnamed = results.filter(
      (r) =>
        r.reply?.status === 400 &&
        r.c.status === 400 &&
        !r.c.fields.every((f) => {
          try {
            // The field itself, or a part of it (`texts[0]` names `texts`).
            const named = (path: string): boolean => path === f || path.startsWith(`${f}[`) || path.startsWith(`${f}.`);
            return (JSON.parse(r.reply!.body) as { error: { fields?: { path: string }[] } }).error.fields?.some((p) => named(p.path)) ?? false;
          } catch {
            return false;
          }
        }),
    );
    const serverErrors = results.filter((r) => (r.reply?.status ?? 0) >= 500).length;
    const noAnswer = results.filter((r) => r.reply === undefined).length;

    // Merge what was accepted: exactly the bodies answered 200 are stored, nothing else.
    const merge = crashed ? { status: 'crashed' } : await receiver.mergeAndStop();
    const sentBodies = new Map(
      results.filter((r) => r.reply?.status === 200).map((r) => [createHash('sha256').update(r.c.body).digest('hex'), r.c.body.toString('utf8')]),
    );
    const accepted = new Set(sentBodies.keys());
    const [events, users] = await queryWarehouse(
      join(dir, 'warehouse.duckdb'),
      'SELECT event_id, body::VARCHAR AS body FROM upsert_events',
      'SELECT count(*)::INTEGER AS n FROM users',
    );
    const stored = new Set(events.map((e) => String(e.event_id)));
    const invalidStored = [...stored].filter((id) => !accepted.has(id)).length;
    const acceptedMissing = [...accepted].filter((id) => !stored.has(id)).length;
    // Stored as sent, byte for byte: nothing normalized, replaced or cut.
    const alteredBodies = events.filter((e) => sentBodies.has(String(e.event_id)) && sentBodies.get(String(e.event_id)) !== e.body).length;

    const families = new Map<string, { family: string; cases: number; expected: string; wrong: number }>();
    for (const r of results) {
      const row = families.get(r.c.family) ?? { family: r.c.family, cases: 0, expected: String(r.c.status), wrong: 0 };
      row.cases += 1;
      if (r.reply?.status !== r.c.status) row.wrong += 1;
      families.set(r.c.family, row);
    }
    reportTable(
      'receiver input families',
      [...families.values()].sort((a, b) => a.family.localeCompare(b.family)),
    );
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[String(r.reply?.status ?? 'none')] = (statuses[String(r.reply?.status ?? 'none')] ?? 0) + 1;
    reportFigure('receiver-input', {
      requests: results.length,
      statuses,
      serverErrors,
      noAnswer,
      crashes: crashed ? 1 : 0,
      asContractPercent: Math.round((1000 * (results.length - wrong.length)) / results.length) / 10,
      fieldNamedPercent:
        Math.round(
          (1000 * (results.filter((r) => r.c.status === 400).length - unnamed.length)) / Math.max(1, results.filter((r) => r.c.status === 400).length),
        ) / 10,
      merge: merge.status,
      accepted: accepted.size,
      stored: stored.size,
      invalidRowsStored: invalidStored,
      acceptedNotStored: acceptedMissing,
      alteredBodies,
      users: Number(users[0]!.n),
    });
    const show = (list: Result[]) =>
      list
        .slice(0, 12)
        .map(
          (r) =>
            `${r.c.family}: expected ${r.c.status} [${r.c.fields.join(', ')}], got ${r.reply?.status ?? r.error} ${r.reply?.body.slice(0, 300) ?? ''}\n  body: ${r.c.body.subarray(0, 200).toString('latin1')}`,
        )
        .join('\n');
    expect(crashed, receiver.stderr().slice(-3000)).toBe(false);
    expect(serverErrors).toBe(0);
    expect(noAnswer, show(results.filter((r) => !r.reply))).toBe(0);
    expect(wrong.length, show(wrong)).toBe(0);
    expect(unnamed.length, show(unnamed)).toBe(0);
    expect(merge).toMatchObject({ status: 'merged' });
    expect(invalidStored).toBe(0);
    expect(acceptedMissing).toBe(0);
    expect(alteredBodies).toBe(0);
  },
  budget(120_000, 400_000),
);
