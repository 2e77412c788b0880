import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_PERMISSIONS, SERIES_STREAMS, SUMMARY_STREAMS, startSimulator, type Simulator } from '../../src/simulator/index.js';
import { TODAY, UUID, documentOf, expectErrorsDocument, get, list, seriesOf, single, stringsOf } from './helpers.js';

// The attribute tables of docs/api.md §2.1, in its order.
const SERIES_ATTRIBUTES: Record<string, string[]> = {
  'venue-devices-history': ['detected', 'unique-detected', 'unique-authenticated', 'authenticated'],
  'venue-users-history': ['logins', 'unique-logins'],
  'venue-remarketing-history': ['embeds'],
  'rating-history': ['rates-average', 'rates-count'],
};
const SUMMARY_ATTRIBUTES: Record<string, string[]> = {
  'venue-devices-summary': ['detected', 'unique-detected', 'unique-authenticated', 'authenticated'],
  'venue-users-login-methods': ['email', 'phone', 'autologin', 'social-a', 'social-b', 'social-c', 'social-d'],
  'venue-users-status': ['inactive', 'active'],
  'venue-users-summary': ['logins', 'unique-logins', 'confirmed-users', 'returning-users'],
  'rating-summary': ['rates_count', 'average_rate', 'rates_per_value'],
};
const DAILY_TS = /^\d{4}-\d{2}-\d{2}T00:00:00\+00:00$/;
const HOURLY_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\+00:00$/;
const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/;

let sim: Simulator;
let venueId: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 3, venues: 7, days: 60, today: TODAY });
  venueId = sim.world.venues[0]!.id;
});
afterAll(() => sim.close());

describe('history endpoints (4.1, 4.3, 4.7, 4.8)', () => {
  it.each(SERIES_STREAMS)('%s serves one resource of daily series, as the ground truth says', async (stream) => {
    const answer = await get(sim, `/analytics/${stream}/${venueId}/?from=2026-03-01&to=2026-03-03`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    const { data, jsonapi, ...rest } = documentOf(answer);
    expect(rest).toEqual({});
    expect(jsonapi).toEqual({ version: '1.0' });
    const resource = single(answer);
    expect(resource.type).toBe(stream);
    expect(resource.id).toMatch(UUID);
    expect(Object.keys(resource.attributes)).toEqual(SERIES_ATTRIBUTES[stream]);
    for (const metric of Object.keys(resource.attributes)) {
      const points = seriesOf(resource, metric);
      expect(points.map(([ts]) => ts)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03'].map((d) => `${d}T00:00:00+00:00`));
      for (const [ts, value] of points) {
        expect(ts).toMatch(DAILY_TS);
        if (metric === 'rates-average') expect(value === null || typeof value === 'number').toBe(true);
        else expect(Number.isInteger(value)).toBe(true);
      }
    }
    expect(data).toEqual(sim.truth.seriesResource(venueId, stream, '2026-03-01', '2026-03-03'));
  });

  it('serves 24 hourly points for a one-day range, adding up to the daily point', async () => {
    const hourly = await get(sim, `/analytics/venue-devices-history/${venueId}/?from=2026-03-02&to=2026-03-02`);
    const daily = await get(sim, `/analytics/venue-devices-history/${venueId}/?from=2026-03-01&to=2026-03-03`);
    for (const metric of ['detected', 'authenticated']) {
      const points = seriesOf(single(hourly), metric);
      expect(points).toHaveLength(24);
      expect(points.map(([ts]) => ts)).toEqual(Array.from({ length: 24 }, (_, h) => `2026-03-02T${String(h).padStart(2, '0')}:00:00+00:00`));
      for (const [ts] of points) expect(ts).toMatch(HOURLY_TS);
      expect(points.reduce((a, [, v]) => a + (v ?? 0), 0)).toBe(seriesOf(single(daily), metric)[1]?.[1]);
    }
    expect(sim.truth.series(venueId, 'venue-devices-history', '2026-03-02', '2026-03-02').granularity).toBe('hour');
    expect(sim.truth.series(venueId, 'venue-devices-history', '2026-03-01', '2026-03-02').granularity).toBe('day');
  });

  it('omits days after today and serves zeros (rates-average null) before the history starts', async () => {
    const future = await get(sim, `/analytics/rating-history/${venueId}/?from=2026-03-09&to=2026-03-20`);
    expect(seriesOf(single(future), 'rates-count').map(([ts]) => ts.slice(0, 10))).toEqual(['2026-03-09', '2026-03-10']);
    const tomorrow = await get(sim, `/analytics/rating-history/${venueId}/?from=2026-03-11&to=2026-03-11`);
    expect(single(tomorrow).attributes['rates-count']).toEqual([]);

    const before = sim.truth.series(venueId, 'rating-history', '2025-12-01', '2025-12-03');
    expect(sim.world.historyStart > '2025-12-03').toBe(true);
    expect(before.points['rates-count']!.map(([, v]) => v)).toEqual([0, 0, 0]);
    expect(before.points['rates-average']!.map(([, v]) => v)).toEqual([null, null, null]);
    const devices = sim.truth.series(venueId, 'venue-devices-history', '2025-12-01', '2025-12-01');
    expect(devices.points.detected).toHaveLength(24);
    expect(devices.points.detected!.every(([, v]) => v === 0)).toBe(true);
  });
});

describe('summary endpoints (4.2, 4.4, 4.5, 4.6, 4.9)', () => {
  it.each(SUMMARY_STREAMS)('%s serves one resource with the spec attributes', async (stream) => {
    const answer = await get(sim, `/analytics/${stream}/${venueId}/?from=2026-02-01&to=2026-02-28`);
    expect(answer.status).toBe(200);
    const { jsonapi } = documentOf(answer);
    const data = single(answer);
    expect(jsonapi).toEqual({ version: '1.0' });
    expect(data.type).toBe(stream === 'rating-summary' ? 'rating' : stream);
    expect(data.id).toMatch(UUID);
    expect(Object.keys(data.attributes)).toEqual(SUMMARY_ATTRIBUTES[stream]);
    if (stream === 'rating-summary') {
      expect(Number.isInteger(data.attributes.rates_count)).toBe(true);
      expect(typeof data.attributes.average_rate).toBe('number');
      const ratesPerValue = z.array(z.tuple([z.number(), z.number()])).parse(data.attributes.rates_per_value);
      expect(ratesPerValue.map(([rate]) => rate)).toEqual([1, 2, 3, 4, 5]);
      for (const [, count] of ratesPerValue) expect(Number.isInteger(count)).toBe(true);
    } else {
      for (const value of Object.values(data.attributes)) expect(Number.isInteger(value)).toBe(true);
    }
    expect(data).toEqual(sim.truth.summaryResource(venueId, stream, '2026-02-01', '2026-02-28'));
  });

  it('summarises the whole history up to today without from/to', async () => {
    const answer = await get(sim, `/analytics/venue-users-summary/${venueId}/`);
    expect(single(answer).attributes).toEqual(sim.truth.summary(venueId, 'venue-users-summary', sim.world.historyStart, TODAY));
    const open = await get(sim, `/analytics/venue-users-summary/${venueId}/?from=2026-03-01`);
    expect(single(open).attributes).toEqual(sim.truth.summary(venueId, 'venue-users-summary', '2026-03-01', TODAY));
  });
});

describe('list endpoints', () => {
  it('rating statistics: one resource per venue with a venue relationship (4.10)', async () => {
    const answer = await get(sim, `/statistics/rating-statistics-summaries/?filter[venue]=${venueId}&from=2026-02-01&to=2026-02-28`);
    expect(answer.status).toBe(200);
    const document = list(answer);
    expect(document.meta).toEqual({ count: 1 });
    expect(document.jsonapi).toEqual({ version: '1.0' });
    const [resource] = document.data;
    expect(resource?.type).toBe('rating-statistics-summary');
    expect(resource?.id).toMatch(UUID);
    expect(Object.keys(resource?.attributes ?? {}).sort()).toEqual(['requests-commented', 'requests-opened', 'requests-rated', 'requests-sent']);
    for (const value of Object.values(resource?.attributes ?? {})) expect(Number.isInteger(value)).toBe(true);
    expect(resource?.relationships).toEqual({ venue: { data: { type: 'venues', id: venueId } } });
    expect(resource).toEqual(sim.truth.ratingStatisticsResource(venueId, '2026-02-01', '2026-02-28'));
    const all = await get(sim, '/statistics/rating-statistics-summaries/?page[size]=100');
    expect(list(all).data.map((r) => r.relationships?.venue?.data.id)).toEqual(sim.world.venues.map((v) => v.id));
  });

  it('venue roles include the inherited project roles (4.12)', async () => {
    const venue = sim.world.venues.find((v) => sim.truth.venueRoles(v.id).some((r) => r.attributes['inherited-from'] === ''))!;
    const answer = await get(sim, `/core/venue-roles/?filter[venue]=${venue.id}&page[size]=100`);
    expect(answer.status).toBe(200);
    const roles = list(answer).data;
    expect(list(answer).meta?.count).toBe(roles.length);
    expect(roles).toEqual(sim.truth.venueRoles(venue.id));
    const accountIds = new Set(sim.world.accounts.map((a) => a.id));
    for (const role of roles) {
      expect(role.type).toBe('venue-roles');
      expect(role.id).toMatch(UUID);
      expect(Object.keys(role.attributes)).toEqual(['name', 'inherited-from', 'permissions']);
      expect(['owner', 'reader']).toContain(role.attributes.name);
      expect(typeof role.attributes['inherited-from']).toBe('string');
      for (const p of stringsOf(role, 'permissions')) expect(ALL_PERMISSIONS).toContain(p);
      expect(role.relationships?.venue).toEqual({ data: { type: 'venues', id: venue.id } });
      expect(role.relationships?.account?.data.type).toBe('accounts');
      expect(accountIds.has(String(role.relationships?.account?.data.id))).toBe(true);
    }
    const inherited = roles.filter((r) => r.attributes['inherited-from'] === 'project-roles');
    const projectRoles = sim.truth.projectRoles(venue.projectId);
    expect(inherited.map((r) => r.relationships?.account?.data.id)).toEqual(projectRoles.map((r) => r.relationships!.account!.data.id));
    // The caller owns the project, so it appears as an inherited owner with every permission.
    expect(inherited).toContainEqual(
      expect.objectContaining({
        attributes: { name: 'owner', 'inherited-from': 'project-roles', permissions: ALL_PERMISSIONS },
        relationships: expect.objectContaining({ account: { data: { type: 'accounts', id: sim.world.me.id } } }),
      }),
    );
  });

  it('project roles are project level only (4.13)', async () => {
    const project = sim.world.projects[0]!;
    const answer = await get(sim, `/core/project-roles/?filter[project]=${project.id}`);
    expect(answer.status).toBe(200);
    const roles = list(answer).data;
    expect(roles).toEqual(sim.truth.projectRoles(project.id));
    for (const role of roles) {
      expect(role.type).toBe('project-roles');
      expect(Object.keys(role.attributes)).toEqual(['name', 'permissions']);
      expect(role.relationships?.project).toEqual({ data: { type: 'projects', id: project.id } });
      expect(role.relationships?.account?.data.type).toBe('accounts');
    }
    const readers = roles.filter((r) => r.attributes.name === 'reader');
    expect(readers.length).toBeGreaterThan(0);
    for (const r of readers) for (const p of stringsOf(r, 'permissions')) expect(p).toMatch(/\.(read|list)$/);
  });

  it('accounts by ids, by id and me (4.14–4.16)', async () => {
    const [a, b] = sim.world.accounts;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const answer = await get(sim, `/accounts/filtered-accounts/?filter[id][in]=${a!.id},${unknown},${b!.id}`);
    expect(answer.status).toBe(200);
    const accounts = list(answer);
    expect(accounts.meta).toEqual({ count: 2 });
    expect(accounts.data.map((r) => r.id)).toEqual([a!.id, b!.id]);
    for (const account of accounts.data) {
      expect(account.type).toBe('accounts');
      expect(Object.keys(account.attributes)).toEqual(['email', 'full-name', 'confirmed-at', 'language', 'roles-names', 'tags', 'created-by-id']);
      expect(account.attributes.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(account.attributes['confirmed-at']).toMatch(ISO_TS);
      expect(account.attributes.language).toMatch(/^[a-z]{2}$/);
      for (const r of stringsOf(account, 'roles-names')) expect(['STANDARD', 'ADMIN']).toContain(r);
      expect(account.attributes.tags).toEqual([]);
      expect(account.attributes['created-by-id'] === null || UUID.test(String(account.attributes['created-by-id']))).toBe(true);
    }
    const one = await get(sim, `/accounts/filtered-accounts/${b!.id}/`);
    expect(one.body).toEqual({ data: sim.truth.account(b!.id), jsonapi: { version: '1.0' } });
    const me = await get(sim, '/accounts/filtered-accounts/me/');
    expect(single(me).id).toBe(sim.world.me.id);
    const createdBy = sim.world.accounts.map((acc) => acc.createdById).filter((id) => id !== null);
    for (const id of createdBy) expect(sim.world.accounts.map((acc) => acc.id)).toContain(id);
  });
});

describe('errors', () => {
  const devices = (query: string): string => `/analytics/venue-devices-history/${venueId}/${query}`;

  it('401 without or with a wrong bearer token', async () => {
    const missing = await fetch(`${sim.url}${devices('?from=2026-03-01&to=2026-03-02')}`, { headers: { accept: 'application/vnd.api+json' } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await get(sim, devices('?from=2026-03-01&to=2026-03-02'), { authorization: 'Bearer nope' });
    expectErrorsDocument(wrong, 401);
  });

  it('406 without the JSON:API media type in Accept', async () => {
    expectErrorsDocument(await get(sim, '/accounts/filtered-accounts/me/', { accept: 'application/json' }), 406);
    expect((await get(sim, '/accounts/filtered-accounts/me/', { accept: 'application/json, application/vnd.api+json' })).status).toBe(200);
  });

  it('404 for unknown ids and paths', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectErrorsDocument(await get(sim, `/analytics/venue-devices-summary/${unknown}/`), 404);
    expectErrorsDocument(await get(sim, `/accounts/filtered-accounts/${unknown}/`), 404);
    expectErrorsDocument(await get(sim, `/core/project-roles/?filter[project]=${unknown}`), 404);
    expectErrorsDocument(await get(sim, `/core/venue-roles/?filter[venue]=${unknown}`), 404);
    expectErrorsDocument(await get(sim, '/analytics/venue-nothing/x/'), 404);
    expectErrorsDocument(await get(sim, '/accounts/filtered-accounts/me'), 404);
  });

  it('400 for a missing or impossible date, a reversed range, a bad page or a missing filter', async () => {
    const missing = await get(sim, devices('?from=2026-03-01'));
    expectErrorsDocument(missing, 400);
    expect(documentOf(missing).errors?.[0]?.source).toEqual({ parameter: 'to' });
    expectErrorsDocument(await get(sim, devices('?from=2026-02-30&to=2026-03-02')), 400);
    expectErrorsDocument(await get(sim, devices('?from=2026-3-1&to=2026-03-02')), 400);
    expectErrorsDocument(await get(sim, devices('?from=2026-03-05&to=2026-03-02')), 400);
    expectErrorsDocument(await get(sim, `/analytics/rating-summary/${venueId}/?to=yesterday`), 400);
    expectErrorsDocument(await get(sim, '/accounts/filtered-accounts/?page[size]=0'), 400);
    expectErrorsDocument(await get(sim, '/core/venue-roles/'), 400);
  });

  it('405 for anything but GET', async () => {
    const answer = await fetch(`${sim.url}/accounts/filtered-accounts/me/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, accept: 'application/vnd.api+json' },
    });
    expect(answer.status).toBe(405);
  });
});

it('records every API request it answered', async () => {
  sim.clearRequests();
  await get(sim, '/accounts/filtered-accounts/me/?x=1', { 'user-agent': 'probe/1' });
  await get(sim, '/nowhere/');
  expect(sim.requests).toEqual([
    expect.objectContaining({
      method: 'GET',
      path: '/accounts/filtered-accounts/me/',
      query: 'x=1',
      status: 200,
      headers: expect.objectContaining({ 'user-agent': 'probe/1' }),
    }),
    expect.objectContaining({ path: '/nowhere/', query: '', status: 404 }),
  ]);
  expect(sim.requests[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(sim.requests[0]!.fault).toBeUndefined();
});
