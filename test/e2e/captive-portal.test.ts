/**
 * A page instead of the API (the built CLI): a captive portal or a proxy answering 200 with
 * `text/html`. Asking again gets the same page, so it is never retried: at the access check it
 * stops the run at once, naming the content type and what to check; on one stream's requests
 * it fails that stream's slices (one request each) and the rest loads.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, describeRun, queryRows, startFixture, type Fixture } from './harness.js';
import { startHost, startMutatingProxy, type TestHost } from './mutating-proxy.js';

const PORTAL = '<!DOCTYPE html><html><head><title>Guest Wi-Fi: sign in</title></head><body><form>Accept the terms</form></body></html>';
let fx: Fixture | undefined;
const hosts: TestHost[] = [];
beforeAll(assertBuilt);
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await fx?.close();
  fx = undefined;
});

it('a captive portal answering every request stops the run at the access check after one request, naming the content type', async () => {
  fx = await startFixture({ sim: { venues: 2, days: 10 } });
  const portal = await startHost((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PORTAL));
  hosts.push(portal);
  fx.writeConfig({ api: { baseUrl: portal.url } });

  const run = await fx.cli(['sync'], { timeoutMs: 150_000 });
  expect(run.code, describeRun(run)).toBe(1);
  expect(run.stderr).toMatch(
    /^VENUE_API_CONTENT_TYPE: GET \/\S+ answered 200 with Content-Type text\/html and a body that is not JSON \(a page titled "Guest Wi-Fi: sign in"\)/m,
  );
  expect(run.stderr).toMatch(/hint: something between venue-etl and the API answered instead of it: a captive portal/);
  expect(run.stderr).not.toMatch(/malformed JSON|api\.maxRetries|VENUE_ETL_INTERNAL/);
  expect(portal.requests).toHaveLength(1);
  expect(existsSync(fx.warehousePath)).toBe(false);
}, 180_000);

it("a proxy answering one stream's requests with a page fails that stream's slices, one request each, and loads the rest", async () => {
  fx = await startFixture({ sim: { venues: 2, days: 10 } });
  const paged: string[] = [];
  const proxy = await startMutatingProxy(fx.sim.url, async (req, res, forward) => {
    if ((req.url ?? '').startsWith('/analytics/venue-devices-history/')) {
      paged.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end(PORTAL);
      return;
    }
    const upstream = await forward();
    res.writeHead(upstream.status, { 'content-type': upstream.contentType }).end(upstream.body);
  });
  hosts.push(proxy);
  fx.writeConfig({ api: { baseUrl: proxy.url } });

  const run = await fx.cli(['sync'], { timeoutMs: 150_000 });
  expect(run.code, describeRun(run)).toBe(3);
  const errors = await queryRows(fx.warehousePath, 'SELECT stream, error_code, message FROM sync_errors');
  expect(errors.length).toBeGreaterThan(0);
  expect(new Set(errors.map((e) => `${e.stream} ${e.error_code}`))).toEqual(new Set(['venue-devices-history VENUE_API_CONTENT_TYPE']));
  // Each failed slice asked once: no retry of a page.
  expect(paged).toHaveLength(errors.length);
  expect(new Set(paged).size).toBe(paged.length);
  const loaded = await queryRows(fx.warehousePath, `SELECT count(*)::INTEGER AS n FROM series_points WHERE stream = 'venue-users-history'`);
  expect(Number(loaded[0]?.n)).toBeGreaterThan(0);
}, 180_000);
