/**
 * Secrets canary: a random API token, random receiver credentials and a random password in
 * `api.baseUrl` (`http://user:password@host`) go through every error
 * path that can be forced — refused token, 5xx and error bodies, bad config (also one that puts
 * a secret where an error message quotes the value), a failing slice, a server that echoes the
 * Authorization header in its error bodies, receiver 401s, `serve` at trace — all at
 * `--log-level trace`. Then every output, every table and column of the warehouse, the Parquet
 * export (read back, and raw bytes), the receiver journal and every other file written are
 * searched for the canaries. None may be found.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  childEnv,
  CLI,
  describeRun,
  queryWarehouse,
  startFixture,
  todayUtc,
  TOKEN_ENV,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { readConfigDocument, type ConfigDocument } from '../e2e/config-document.js';
import { reportFigure, reportTable } from './figures.js';
import { filesUnder, parquetText } from './parquet-reads.js';
import { postRaw } from './receiver-child.js';
import { waitForOutput } from '../wait.js';
import { receiverUrl } from '../serve/serve-child.js';

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
const TOKEN = `cnrytok${hex(12)}`;
const REFUSED_TOKEN = `cnryold${hex(12)}`;
const USER = `cnryusr${hex(4)}`;
const PASSWORD = `cnrypwd${hex(10)}`;
const CREDENTIALS = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const AUTHORIZATION = `Basic ${CREDENTIALS}`;
const AUTH_ENV = 'VENUE_RECEIVER_AUTHORIZATION';
/** A password written into api.baseUrl, from the environment like the other secrets. */
const URL_PASSWORD = `cnryurl${hex(10)}`;
const URL_PASSWORD_ENV = 'VENUE_API_URL_PASSWORD';
/** What must never show: each secret, and the parts a leak would most likely show. */
const CANARIES: Readonly<Record<string, string>> = {
  token: TOKEN,
  'refused token': REFUSED_TOKEN,
  'receiver authorization': AUTHORIZATION,
  'base64 credentials': CREDENTIALS,
  password: PASSWORD,
  'password in api.baseUrl': URL_PASSWORD,
  // The start of an echoed header, as a parser's excerpt of the body would show it.
  'token start': `Bearer ${TOKEN.slice(0, 3)}`,
};

let fx: Fixture;
const outputs: { label: string; text: string }[] = [];
const record = (label: string, run: CliResult): CliResult => {
  outputs.push({ label, text: `${run.stdout}\n${run.stderr}` });
  return run;
};
const env = (extra: Record<string, string> = {}) => childEnv({ [TOKEN_ENV]: TOKEN, [AUTH_ENV]: AUTHORIZATION, [URL_PASSWORD_ENV]: URL_PASSWORD, ...extra });

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 2, token: TOKEN }, config: { sync: { startDate: addDays(todayUtc(), -4) } } });
});
afterAll(async () => {
  await fx?.close();
});

/** Writes a config (the fixture's, changed by `edit`) and returns its path. */
function config(name: string, edit: (c: ConfigDocument) => void = () => undefined): string {
  const c = readConfigDocument(fx.configPath);
  edit(c);
  const path = join(fx.dir, `${name}.config.json`);
  writeFileSync(path, JSON.stringify(c, null, 2));
  return path;
}

const cli = async (label: string, args: readonly string[], configPath: string, extraEnv: Record<string, string> = {}): Promise<CliResult> =>
  record(label, await fx.cli([...args, '--log-level', 'trace'], { configPath, env: env(extraEnv), timeoutMs: 60_000 }));

/**
 * An API that echoes the request's Authorization header back in its error bodies, in every way
 * it can: JSON:API error title/detail/meta, an HTML page, a 2xx errors document, malformed JSON,
 * a redirect, and a next link to another origin with the token in its query.
 */
async function echoingApi(): Promise<{ url: string; close: () => Promise<void>; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization ?? '';
    requests.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/vnd.api+json', ...headers });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/accounts/filtered-accounts/me/') {
      return json(200, {
        data: {
          type: 'accounts',
          id: '00000000-0000-4000-8000-0000000000aa',
          attributes: {
            email: 'me@example.com',
            'full-name': 'Me',
            'confirmed-at': '2025-01-01T00:00:00+00:00',
            language: 'en',
            'roles-names': ['ADMIN'],
            tags: [],
            'created-by-id': null,
          },
        },
        jsonapi: { version: '1.0' },
      });
    }
    const venue = /([0-9a-f]{8}-[0-9a-f-]{27})/.exec(req.url ?? '')?.[1] ?? '';
    switch (venue.slice(-1)) {
      case '1':
        return json(500, { errors: [{ status: '500', title: `upstream said ${auth}`, detail: `Authorization: ${auth}`, meta: { header: auth } }] });
      case '2':
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end(`<html><body>Bad gateway for ${auth}</body></html>`);
      case '3':
        return json(422, {
          errors: [{ status: '422', title: 'Invalid header', detail: `the header ${auth} is not accepted`, source: { header: 'Authorization' } }],
        });
      case '4':
        return json(200, { errors: [{ title: `refused ${auth}`, detail: auth }], jsonapi: { version: '1.0' } });
      case '5':
        res.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        return res.end(`${auth} {"data": `);
      case '6':
        res.writeHead(302, { location: `http://127.0.0.1:9/login?token=${encodeURIComponent(auth)}` });
        return res.end(`moved: ${auth}`);
      case '7':
        return json(404, { errors: [{ detail: `no venue for ${auth}` }] });
      default:
        return json(200, {
          data: [],
          meta: { count: 0 },
          links: { next: `http://127.0.0.2:9/next?auth=${auth.replace('Bearer ', '')}` },
          jsonapi: { version: '1.0' },
        });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

it('no secret reaches a log, an output, the warehouse, the Parquet export, the journal or any file', async () => {
  const main = config('main', (c) => {
    c.receiver = { enabled: true, authorization: `\${${AUTH_ENV}}`, port: 8787 };
  });
  // Valid runs first, so the warehouse has data, runs and a failed slice or two.
  expect((await cli('sync', ['sync'], main)).code).toBe(0);
  expect((await cli('config', ['config'], main)).code).toBe(0);

  // A password in api.baseUrl: printed by `config`, carried through a sync, a refused token and a 404 venue.
  const withUrlPassword = (name: string, edit: (c: ConfigDocument) => void = () => undefined) =>
    config(name, (c) => {
      c.api.baseUrl = String(c.api.baseUrl).replace('://', `://etl:\${${URL_PASSWORD_ENV}}@`);
      edit(c);
    });
  expect((await cli('config, password in api.baseUrl', ['config'], withUrlPassword('url-password'))).code).toBe(0);
  const urlSync = await cli('sync, password in api.baseUrl', ['sync'], withUrlPassword('url-password-sync'));
  expect(urlSync.code, describeRun(urlSync)).toBe(0);
  const urlRefused = await cli('refused token, password in api.baseUrl', ['sync'], withUrlPassword('url-password-refused'), { [TOKEN_ENV]: REFUSED_TOKEN });
  expect(urlRefused.code, describeRun(urlRefused)).toBe(1);
  const urlGhost = await cli(
    '404 venue, password in api.baseUrl',
    ['sync'],
    withUrlPassword('url-password-ghost', (c) => c.scope.venues.push('0badc0de-0000-4000-8000-000000000404')),
  );
  expect(urlGhost.code, describeRun(urlGhost)).toBe(3);

  // Refused token: the API answers 401.
  const refused = await cli('refused token', ['sync'], main, { [TOKEN_ENV]: REFUSED_TOKEN });
  expect(refused.code, describeRun(refused)).toBe(1);

  // 5xx, error bodies, malformed JSON on some streams: failing slices (exit 3).
  fx.sim.setFaults('500=1@venue-devices-history,errors-body=1@venue-users-summary,malformed=1@venue-roles,502=1@rating-history');
  const faults = await cli(
    '5xx and broken bodies',
    ['sync'],
    config('faults', (c) => Object.assign(c.api, { maxRetries: 1 })),
  );
  expect(faults.code, describeRun(faults)).toBe(3);
  fx.sim.setFaults('none');

  // A venue the API does not know: 404 slices.
  const ghost = await cli(
    '404 venue',
    ['sync'],
    config('ghost', (c) => c.scope.venues.push('0badc0de-0000-4000-8000-000000000404')),
  );
  expect(ghost.code, describeRun(ghost)).toBe(3);

  // Bad configs: an ordinary mistake, and secrets placed where the message quotes the value.
  const bad = await cli(
    'bad config',
    ['sync'],
    config('bad', (c) => (c.api.concurrency = 'eight')),
  );
  expect(bad.code).toBe(2);
  const quoted = await cli(
    'bad config quoting values',
    ['sync'],
    config('quoted', (c) => {
      c.schedule = { timezone: `\${${TOKEN_ENV}}`, jobs: { 'nightly-sync': `\${${AUTH_ENV}}` } };
      c.sync.streams = [`\${${TOKEN_ENV}}`];
      c.receiver = { authorization: `\${${AUTH_ENV}}` };
    }),
  );
  expect(quoted.code).toBe(2);
  expect(
    (
      await cli(
        'config command on a bad config',
        ['config'],
        config('quoted-config', (c) => (c.sync.streams = [`\${${TOKEN_ENV}}`])),
      )
    ).code,
  ).toBe(2);

  // An API that echoes the Authorization header back in its error bodies.
  const echo = await echoingApi();
  const venues = Array.from({ length: 8 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);
  const echoed = await cli(
    'echoing API',
    ['sync', '--streams', 'venue-devices-history,venue-roles'],
    config('echo', (c) => {
      c.api.baseUrl = echo.url;
      c.api.maxRetries = 1;
      c.scope = { venues, projects: [] };
    }),
  );
  const echoedRefused = await cli(
    'echoing API refusing mid-run',
    ['sync', '--streams', 'venue-devices-history'],
    config('echo-401', (c) => {
      c.api.baseUrl = echo.url;
      c.scope = { venues: ['00000000-0000-4000-8000-000000000099'], projects: [] };
    }),
  );
  await echo.close();
  // Every venue fails on its own (exit 3), the foreign next link and the redirect included.
  expect([1, 3], describeRun(echoed)).toContain(echoed.code);
  expect(echoedRefused.code, describeRun(echoedRefused)).toBe(1);
  expect(echo.requests.some((r) => r.includes('/next?'))).toBe(false);

  // serve at trace: a scheduled sync, the receiver refusing near-miss credentials, accepting one event.
  const serveConfig = config('serve', (c) => {
    c.receiver = { enabled: true, authorization: `\${${AUTH_ENV}}`, port: 0 };
    c.schedule = { jobs: { 'nightly-sync': '*/2 * * * * *', 'parquet-export': '0 0 1 1 *', 'roles-snapshot': '0 0 1 1 *' } };
  });
  const serve = spawn(process.execPath, [CLI, 'serve', '--config', serveConfig, '--log-level', 'trace'], {
    cwd: fx.dir,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serveOut = '';
  serve.stdout.on('data', (d: Buffer) => (serveOut += d.toString('utf8')));
  serve.stderr.on('data', (d: Buffer) => (serveOut += d.toString('utf8')));
  const serveExit = new Promise<number | null>((resolve) => serve.on('exit', (code) => resolve(code)));
  await waitForOutput(serve, () => serveOut, /"event receiver listening"/);
  const url = receiverUrl(serveOut)!;
  const event = JSON.stringify({ data: { user: { id: '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01', email: 'a@example.com' }, venue: { id: fx.venues[0] } } });
  const json = { 'content-type': 'application/json' };
  const replies = [
    await postRaw(url, event, { headers: { ...json, authorization: `${AUTHORIZATION}x` } }),
    await postRaw(url, event, { headers: { ...json, authorization: `Bearer ${TOKEN}` } }),
    await postRaw(url, event, { headers: { ...json, authorization: PASSWORD } }),
    await postRaw(url, event, { headers: { ...json, authorization: AUTHORIZATION.toLowerCase() } }),
    await postRaw(url, event, { headers: { 'content-type': 'text/plain', authorization: AUTHORIZATION } }),
    await postRaw(url, '{"data": {', { headers: { ...json, authorization: AUTHORIZATION } }),
    await postRaw(url, event, { headers: { ...json, authorization: AUTHORIZATION } }),
    await postRaw(url, '', { method: 'GET', path: '/healthz', headers: { authorization: AUTHORIZATION } }),
  ];
  // Until the scheduled sync has run once.
  await waitForOutput(serve, () => serveOut, /job finished/, 30_000);
  // A clean stop merges the journal and deletes its segments: read them while they hold the events.
  const journalFiles = filesUnder(fx.dir)
    .filter((f) => f.includes('journal'))
    .map((f) => ({ file: f, bytes: readFileSync(join(fx.dir, f)) }));
  serve.kill('SIGTERM');
  const serveCode = await serveExit;
  outputs.push({ label: 'serve', text: serveOut });
  for (const reply of replies) outputs.push({ label: `receiver answer ${reply.status}`, text: JSON.stringify(reply) });
  expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401, 415, 400, 200, 200]);
  expect(serveCode, serveOut.slice(-3000)).toBe(0);
  expect(serveOut).toMatch(/"job":"nightly-sync".*"msg":"job finished/);

  // The export writes every table, sync_errors and sync_runs included.
  expect((await cli('export', ['export'], main)).code).toBe(0);

  // Search everything.
  const found: { place: string; canary: string }[] = [];
  const search = (place: string, text: string | Buffer): void => {
    for (const [name, canary] of Object.entries(CANARIES)) {
      if (typeof text === 'string' ? text.includes(canary) : text.includes(Buffer.from(canary))) found.push({ place, canary: name });
    }
  };
  for (const output of outputs) search(`output: ${output.label}`, output.text);
  const warehouse = join(fx.dir, 'data', 'warehouse.duckdb');
  const [tables] = await queryWarehouse(warehouse, `SELECT table_name FROM duckdb_tables() ORDER BY table_name`);
  const names = tables.map((t) => String(t.table_name));
  const contents = await queryWarehouse(warehouse, ...names.map((t) => `SELECT * FROM "${t}"`));
  let rows = 0;
  names.forEach((table, i) => {
    rows += contents[i]!.length;
    search(`warehouse table ${table}`, JSON.stringify(contents[i]));
  });
  const parquetDir = join(fx.dir, 'parquet');
  search('parquet rows read back', await parquetText(parquetDir));
  const files = filesUnder(fx.dir);
  for (const file of files) search(`file ${file}`, readFileSync(join(fx.dir, file)));
  for (const { file, bytes } of journalFiles) search(`file ${file} (before the stop)`, bytes);

  const places = outputs.length + names.length + 1 + files.length + journalFiles.length;
  reportTable('secret canaries found', found.length > 0 ? found : [{ place: '(none)', canary: '-' }]);
  reportFigure('secrets-canary', {
    canaries: Object.keys(CANARIES).length,
    outputsSearched: outputs.length,
    tablesSearched: names.length,
    rowsSearched: rows,
    filesSearched: files.length,
    parquetFiles: files.filter((f) => f.endsWith('.parquet')).length,
    journalFiles: journalFiles.length,
    placesSearched: places,
    canariesFound: found.length,
  });
  expect(found).toEqual([]);
  // The searches looked where the secrets would have gone.
  expect(names).toEqual(expect.arrayContaining(['sync_errors', 'sync_runs', 'upsert_events']));
  expect(journalFiles.some(({ file, bytes }) => file.endsWith('.journal') && bytes.length > 8)).toBe(true);
  expect(outputs.some((o) => o.text.includes('***'))).toBe(true);
}, 180_000);
