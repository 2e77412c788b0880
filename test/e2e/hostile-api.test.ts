/**
 * Hostile answers end to end: the built CLI syncs through a proxy in front of the simulator that
 * gzips every answer (without being asked, as some servers do) and, for one venue each, sends a
 * 1.1 GB body, a gzip bomb, a looping links.next, a links.next that never ends, a links.next to
 * another host, and redirects. Each must fail its own slice only; everything else loads exactly.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { gzipBomb, MiB, sendEncoded, streamBody, type StreamedBody } from '../api/hostile-bodies.js';
import { addDays, assertBuilt, describeRun, diffMaps, NO_DIFF, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';
import { startHost, startMutatingProxy, type TestHost, type Upstream } from './mutating-proxy.js';
import { expectedRoles, expectedSeries, expectedSummaries, SERIES, storedRoles, storedSeries, storedSummaries, SUMMARY_KIND } from './truth.js';

const today = todayUtc();
const yesterday = addDays(today, -1);
const from = addDays(today, -14);
let fx: Fixture | undefined;
const hosts: TestHost[] = [];
beforeAll(assertBuilt);
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await fx?.close();
  fx = undefined;
});

/** The hostile answer of each venue (by its index in the world), and the error it must leave. */
const HOSTILE = [
  {
    venue: 1,
    stream: 'venue-devices-history',
    code: 'VENUE_API_RESPONSE_TOO_LARGE',
    says: /more than 32 MiB \(api\.maxResponseBytes\); reading stopped there/,
  },
  { venue: 2, stream: 'venue-users-summary', code: 'VENUE_API_RESPONSE_TOO_LARGE', says: /once decoded from gzip/ },
  { venue: 3, stream: 'venue-roles', code: 'VENUE_API_PAGINATION_LOOP', says: /pagination loops after 2 pages: page 2 holds the same \d+ resources as page 1/ },
  { venue: 4, stream: 'venue-roles', code: 'VENUE_API_FOREIGN_LINK', says: /points to another origin/ },
  { venue: 5, stream: 'rating-history', code: 'VENUE_API_REDIRECT', says: /answered 302 \(a redirect\) without a usable Location header/ },
  { venue: 5, stream: 'venue-remarketing-history', code: 'VENUE_API_REDIRECT', says: /was redirected \(301\) to another origin/ },
  { venue: 6, stream: 'venue-roles', code: 'VENUE_API_TOO_MANY_PAGES', says: /still had a links\.next after 20 pages \(api\.maxPages\)/ },
] as const;

function sendGzipped(res: ServerResponse, upstream: Upstream): void {
  sendEncoded(res, gzipSync(upstream.body), 'gzip', upstream.status);
}

it('each hostile answer fails its own slice (exit 3); gzip answers load; no request reaches another host', async () => {
  fx = await startFixture({ sim: { venues: 7 } });
  const { venues, projects, sim } = fx;
  const foreign = await startHost((_req, res) => res.writeHead(200).end('{}'));
  hosts.push(foreign);
  let huge: StreamedBody | undefined;
  const rolePages = new Map<string, number>();

  const proxy = await startMutatingProxy(sim.url, async (req, res, forward) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const analytics = /^\/analytics\/([a-z-]+)\/([^/]+)\/$/.exec(url.pathname);
    const venue = venues.indexOf(analytics?.[2] ?? url.searchParams.get('filter[venue]') ?? '');
    const stream = analytics?.[1] ?? (url.pathname === '/core/venue-roles/' ? 'venue-roles' : '');
    if (venue === 1 && stream === 'venue-devices-history') {
      huge = streamBody(res, 1100 * 1000 * 1000);
      return;
    }
    if (venue === 2 && stream === 'venue-users-summary') return sendEncoded(res, gzipBomb(64 * MiB), 'gzip');
    if (venue === 5 && stream === 'rating-history') return res.writeHead(302).end();
    if (venue === 5 && stream === 'venue-remarketing-history') {
      return res.writeHead(301, { location: `${foreign.url}${url.pathname}${url.search}&token=${sim.token}` }).end();
    }
    if (stream !== 'venue-roles' || ![3, 4, 6].includes(venue)) return sendGzipped(res, await forward());

    // Every page of these lists is the simulator's first, rewritten.
    const upstream = await forward(`/core/venue-roles/?filter[venue]=${venues[venue]}&page[number]=1&page[size]=100`);

    const page = (rolePages.get(venues[venue]!) ?? 0) + 1;
    rolePages.set(venues[venue]!, page);
    const document = JSON.parse(upstream.body.toString('utf8')) as { data: { id: string }[]; links: Record<string, unknown> };
    const nextUrl = (origin: string, extra: string) =>
      `${origin}/core/venue-roles/?filter[venue]=${venues[venue]}&page[number]=${page + 1}&page[size]=100${extra}`;
    // 3: the same page again and again under a changing link (its page parameters: anything else
    // would name another list); 4: a next page on another host;
    // 6: new resources and a new link on every page, for ever.
    if (venue === 3) document.links.next = nextUrl(proxy.url, `&page[nonce]=${page}`);
    if (venue === 4) document.links.next = nextUrl(foreign.url, `&token=${sim.token}`);
    if (venue === 6) {
      document.data = document.data.map((role) => ({ ...role, id: `${role.id.slice(0, 24)}${page.toString(16).padStart(12, '0')}` }));
      document.links.next = nextUrl(proxy.url, '');
    }
    return sendGzipped(res, { ...upstream, body: Buffer.from(JSON.stringify(document)) });
  });
  hosts.push(proxy);

  const configPath = fx.writeConfig({ api: { baseUrl: proxy.url, maxPages: 20, maxRetries: 2 }, sync: { startDate: from } });
  const run = await fx.cli(['sync'], { configPath, samplePeakRss: true, timeoutMs: 120_000 });
  expect(run.code, describeRun(run)).toBe(3);
  expect(run.stderr).not.toMatch(/VENUE_ETL_INTERNAL|^\s+at /m);
  expect(`${run.stdout}${run.stderr}`).not.toContain(sim.token);

  const errors = await queryRows(fx.warehousePath, `SELECT stream, scope_id AS scope, error_code AS code, message FROM sync_errors ORDER BY stream, scope_id`);
  const expected = HOSTILE.map((h) => ({ stream: h.stream, scope: venues[h.venue], code: h.code, message: expect.stringMatching(h.says) }));
  const order = (a: { stream: string; scope?: string }, b: { stream: string; scope?: string }) =>
    `${a.stream}|${a.scope}`.localeCompare(`${b.stream}|${b.scope}`);
  expect(errors).toEqual([...expected].sort(order));
  for (const error of errors) expect(String(error.message)).not.toContain(sim.token);

  // The token never left for the other host: neither through the links.next nor the redirect.
  expect(foreign.requests).toEqual([]);
  // The 1.1 GB body was abandoned near the 32 MiB limit; the loop cost two pages, the endless list 20.
  await huge?.done;
  expect(huge!.written).toBeLessThan(128 * MiB);
  expect(rolePages.get(venues[3]!)).toBe(2);
  expect(rolePages.get(venues[6]!)).toBe(20);
  expect(run.peakRssKb).toBeLessThan(1024 * 1024);

  // Everything not hit by a hostile answer is exactly the simulator's truth.
  for (const [index, venue] of venues.entries()) {
    const failed = HOSTILE.filter((h) => h.venue === index).map((h) => h.stream as string);
    const range = { venues: [venue], streams: [...SERIES, ...SUMMARY_KIND].filter((s) => !failed.includes(s)), from, to: yesterday };
    expect(diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(sim, range)), venue).toEqual(NO_DIFF);
    expect(diffMaps(await storedSummaries(fx.warehousePath, range), expectedSummaries(sim, range)), venue).toEqual(NO_DIFF);
  }
  const loadedRoles = venues.filter((_venue, index) => ![3, 4, 6].includes(index));
  const roles = await storedRoles(fx.warehousePath);
  expect(diffMaps(roles.venue, expectedRoles(sim, loadedRoles, projects).venue)).toEqual(NO_DIFF);
  expect(diffMaps(roles.project, expectedRoles(sim, [], projects).project)).toEqual(NO_DIFF);

  console.log(
    [
      'hostile answers through `venue-etl sync` (defaults: api.maxResponseBytes 32 MiB; api.maxPages 20 in this config):',
      `  1.1 GB body: ${(huge!.written / MiB).toFixed(1)} MiB sent before the client hung up; peak RSS of the CLI ${Math.round(run.peakRssKb! / 1024)} MB`,
      `  looping links.next: ${rolePages.get(venues[3]!)} pages fetched before the loop was detected`,
      `  requests reaching the foreign host (links.next and redirect, token in the link): ${foreign.requests.length}`,
      `  sync_errors: ${errors.map((e) => `${e.stream} ${e.code}`).join(', ')}`,
    ].join('\n'),
  );
});
