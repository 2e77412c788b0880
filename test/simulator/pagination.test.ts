import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { TODAY, documentOf, expectErrorsDocument, get, list, walk } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 11, venues: 30, days: 30, today: TODAY, defaultPageSize: 4, maxPageSize: 9 });
});
afterAll(() => sim.close());

const STATS = '/statistics/rating-statistics-summaries/?from=2026-03-01&to=2026-03-07';

it('walks every resource exactly once via links.next, null at both ends', async () => {
  const pages = await walk(sim, `${STATS}&page[size]=7`);
  expect(pages).toHaveLength(5); // 30 venues, 7 per page
  const venueIds = pages.flatMap((p) => p.data.map((r) => r.relationships?.venue?.data.id));
  expect(venueIds).toEqual(sim.world.venues.map((v) => v.id));
  expect(pages[0]?.links?.previous).toBeNull();
  expect(pages.at(-1)?.links?.next).toBeNull();
  pages.forEach((page, i) => {
    expect(page.meta?.count).toBe(page.data.length);
    expect(page.jsonapi).toEqual({ version: '1.0' });
    expect(page.links?.self).toBe(`${sim.url}${STATS}&page[number]=${i + 1}&page[size]=7`);
    expect(page.links?.first).toBe(`${sim.url}${STATS}&page[number]=1&page[size]=7`);
    expect(page.links?.last).toBe(`${sim.url}${STATS}&page[number]=5&page[size]=7`);
    if (i > 0) expect(page.links?.previous).toBe(`${sim.url}${STATS}&page[number]=${i}&page[size]=7`);
  });
  expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 2]);
});

it('uses the default page size and clamps a larger one to the maximum', async () => {
  const first = list(await get(sim, STATS));
  expect(first.data).toHaveLength(4);
  expect(first.links?.next).toBe(`${sim.url}${STATS}&page[number]=2&page[size]=4`);
  const clamped = list(await get(sim, `${STATS}&page[size]=1000`));
  expect(clamped.data).toHaveLength(9);
  expect(clamped.meta?.count).toBe(9);
  expect(clamped.links?.next).toContain('page[size]=9');
  const pages = await walk(sim, `${STATS}&page[size]=1000`);
  expect(pages.flatMap((p) => p.data)).toHaveLength(30);
});

it('answers a page past the end with empty data, previous at the last page and no next', async () => {
  const past = await get(sim, `${STATS}&page[number]=99&page[size]=8`);
  expect(past.status).toBe(200);
  const document = documentOf(past);
  expect(document.data).toEqual([]);
  expect(document.meta).toEqual({ count: 0 });
  expect(document.links?.next).toBeNull();
  expect(document.links?.previous).toBe(`${sim.url}${STATS}&page[number]=4&page[size]=8`);
  expect(document.links?.last).toBe(document.links?.previous);
});

it('keeps percent-encoded page parameters working and replaces them in links', async () => {
  const answer = list(await get(sim, `${STATS}&page%5Bnumber%5D=2&page%5Bsize%5D=5`));
  expect(answer.data).toHaveLength(5);
  expect(answer.links?.self).toBe(`${sim.url}${STATS}&page[number]=2&page[size]=5`);
});

it('rejects page numbers and sizes that are not positive whole numbers', async () => {
  expectErrorsDocument(await get(sim, `${STATS}&page[number]=0`), 400);
  expectErrorsDocument(await get(sim, `${STATS}&page[size]=-1`), 400);
  expectErrorsDocument(await get(sim, `${STATS}&page[number]=two`), 400);
});

it('paginates roles and accounts the same way', async () => {
  const venue = sim.world.venues.reduce((a, b) => (sim.truth.venueRoles(a.id).length >= sim.truth.venueRoles(b.id).length ? a : b));
  const roles = await walk(sim, `/core/venue-roles/?filter[venue]=${venue.id}&page[size]=1`);
  expect(roles.length).toBe(sim.truth.venueRoles(venue.id).length);
  expect(roles.flatMap((p) => p.data)).toEqual(sim.truth.venueRoles(venue.id));

  const accounts = await walk(sim, '/accounts/filtered-accounts/');
  const ids = accounts.flatMap((p) => p.data.map((r) => r.id));
  expect(ids).toEqual(sim.world.accounts.map((a) => a.id));
  expect(new Set(ids).size).toBe(ids.length);

  const empty = await get(sim, '/accounts/filtered-accounts/?filter[id][in]=00000000-0000-4000-8000-000000000000');
  expect(empty.body).toMatchObject({ data: [], meta: { count: 0 }, links: { previous: null, next: null } });
});
