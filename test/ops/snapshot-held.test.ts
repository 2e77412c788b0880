/**
 * snapshot.held end to end: the API (the simulator behind a proxy) answers one venue's roles
 * with an empty list; the run holds that snapshot back (docs/warehouse.md, "Held snapshots")
 * and the webhook hears `snapshot.held` naming the venue.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, describeRun, startFixture, TEST_NOW, type Fixture } from '../e2e/harness.js';
import { startMutatingProxy, type TestHost } from '../e2e/mutating-proxy.js';
import { startHookServer, type HookServer } from './hook-server.js';

let fx: Fixture | undefined;
let proxy: TestHost | undefined;
let hooks: HookServer | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await proxy?.close();
  await hooks?.close();
  await fx?.close();
  proxy = undefined;
  hooks = undefined;
  fx = undefined;
});

it('a held roles snapshot is told as snapshot.held', async () => {
  const fixture = await startFixture({ sim: { seed: 25, venues: 3 } });
  fx = fixture;
  hooks = await startHookServer();
  let emptyFor: string | undefined;
  proxy = await startMutatingProxy(fixture.sim.url, async (req, res, forwardAsIs) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const upstream = await forwardAsIs();
    let body = upstream.body.toString('utf8').replaceAll(fixture.sim.url, proxy!.url);
    if (emptyFor && url.pathname === '/core/venue-roles/' && url.searchParams.get('filter[venue]') === emptyFor) {
      const document = JSON.parse(body) as { data: unknown[]; links?: Record<string, unknown> };
      body = JSON.stringify({ ...document, data: [], links: { ...document.links, next: null } });
    }
    res.writeHead(upstream.status, { 'content-type': upstream.contentType, date: new Date(TEST_NOW).toUTCString() }).end(body);
  });
  const configPath = fixture.writeConfig({
    api: { baseUrl: proxy.url, maxRetries: 1 },
    blocks: { notify: { webhooks: [{ name: 'roles', url: `${hooks.url}/roles`, events: ['snapshot.held'] }] } },
  });
  const sync = () => fixture.cli(['sync', '--streams', 'venue-roles,project-roles,accounts'], { configPath, timeoutMs: 60_000 });
  const clean = await sync();
  expect(clean.code, describeRun(clean)).toBe(0);
  expect(hooks.received).toEqual([]);

  emptyFor = fixture.venues[0]!;
  const held = await sync();
  expect(held.code, describeRun(held)).toBe(0);
  const [event] = hooks.on('/roles').map((r) => r.json);
  expect(event).toMatchObject({ version: 1, event: 'snapshot.held', job: 'sync', outcome: 'succeeded' });
  expect(event!.snapshots).toEqual([
    { stream: 'venue-roles', scopeId: emptyFor, reason: expect.stringMatching(/^the answer would close \d+ of \d+ open roles; held since /) },
  ]);
}, 180_000);
