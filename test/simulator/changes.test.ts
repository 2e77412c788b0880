import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RoleChanges, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { TODAY, get, list, seriesOf, single, stringsOf, type Resource } from './helpers.js';

const started: Simulator[] = [];
async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ seed: 21, venues: 6, days: 60, today: TODAY, ...options });
  started.push(sim);
  return sim;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

describe('late data', () => {
  it('revise() changes today and the N days before it, never older days', async () => {
    const sim = await simulator({ reviseRecentDays: 3 });
    const venueId = sim.world.venues[1]!.id;
    const path = `/analytics/venue-devices-history/${venueId}/?from=2026-02-20&to=${TODAY}`;
    const before = seriesOf(single(await get(sim, path)), 'detected');
    const summaryBefore = sim.truth.summary(venueId, 'venue-devices-summary', '2026-02-01', '2026-03-05');
    sim.revise();
    expect(sim.revision).toBe(1);
    const after = seriesOf(single(await get(sim, path)), 'detected');
    const recent = (ts: string): boolean => ts >= '2026-03-07';
    expect(after.filter(([ts]) => !recent(ts))).toEqual(before.filter(([ts]) => !recent(ts)));
    expect(after.filter(([ts]) => recent(ts))).not.toEqual(before.filter(([ts]) => recent(ts)));
    expect(after).toEqual(sim.truth.series(venueId, 'venue-devices-history', '2026-02-20', TODAY).points.detected);
    expect(sim.truth.summary(venueId, 'venue-devices-summary', '2026-02-01', '2026-03-05')).toEqual(summaryBefore);
    // Revised days still keep every invariant.
    const day = sim.truth.day(venueId, '2026-03-08');
    expect(sim.truth.hours(venueId, '2026-03-08').reduce((a, h) => a + h.detected, 0)).toBe(day.detected);
    sim.revise();
    expect(single(await get(sim, path)).attributes.detected).not.toEqual(after);
  });

  it('revise() without reviseRecentDays is an error that says what to set', async () => {
    const sim = await simulator();
    expect(() => sim.revise()).toThrow(/reviseRecentDays/);
  });
});

describe('role changes', () => {
  it('mutateRoles() adds, removes and changes roles deterministically, never removing the caller', async () => {
    const sim = await simulator();
    const twin = await simulator();
    const changes: RoleChanges[] = [];
    for (let i = 0; i < 5; i += 1) {
      const change = sim.mutateRoles();
      expect(twin.mutateRoles()).toEqual(change);
      changes.push(change);
    }
    const all = (s: Simulator) => [...s.world.projects.flatMap((p) => s.truth.projectRoles(p.id)), ...s.world.venues.flatMap((v) => s.truth.venueRoles(v.id))];
    expect(all(sim)).toEqual(all(twin));
    for (const change of changes) {
      expect(change.added.length + change.removed.length + change.changed.length).toBeGreaterThanOrEqual(2);
      for (const role of change.removed) expect(role.accountId).not.toBe(sim.world.me.id);
      change.changed.forEach(({ before, after }) => {
        expect(after.id).toBe(before.id);
        expect(after.permissions).not.toEqual(before.permissions);
      });
    }
    // The caller still owns every project.
    for (const project of sim.world.projects) {
      expect(sim.truth.projectRoles(project.id).some((r) => r.relationships!.account!.data.id === sim.world.me.id)).toBe(true);
    }
  });

  it('the endpoints reflect added, removed and changed roles, inherited ones included', async () => {
    const sim = await simulator();
    const change = sim.mutateRoles();
    const scopeRoles = async (role: RoleChanges['added'][number]): Promise<Resource[]> => {
      if (role.level === 'venue') return list(await get(sim, `/core/venue-roles/?filter[venue]=${role.scopeId}&page[size]=100`)).data;
      return list(await get(sim, `/core/project-roles/?filter[project]=${role.scopeId}&page[size]=100`)).data;
    };
    for (const role of change.added) expect((await scopeRoles(role)).map((r) => r.id)).toContain(role.id);
    for (const role of change.removed) {
      expect((await scopeRoles(role)).map((r) => r.id)).not.toContain(role.id);
      if (role.level === 'project') {
        // Gone from the venues that inherited it, too.
        const venueId = sim.world.projects.find((p) => p.id === role.scopeId)!.venueIds[0]!;
        const inherited = sim.truth.venueRoles(venueId).filter((r) => r.attributes['inherited-from'] === 'project-roles');
        expect(inherited.map((r) => r.relationships!.account!.data.id)).not.toContain(role.accountId);
      }
    }
    for (const { after } of change.changed) {
      const served = (await scopeRoles(after)).find((r) => r.id === after.id);
      expect(served && stringsOf(served, 'permissions')).toEqual(after.permissions);
    }
  });
});

describe('control endpoints', () => {
  const control = (sim: Simulator, path: string, init: RequestInit = {}) =>
    fetch(`${sim.url}/__sim/${path}`, { ...init, headers: { authorization: `Bearer ${sim.token}`, ...(init.headers ?? {}) } });

  it('serve the world, the request log, revise, mutate-roles and faults', async () => {
    const sim = await simulator({ reviseRecentDays: 2 });
    expect(await (await control(sim, 'world')).json()).toEqual(JSON.parse(JSON.stringify(sim.world)));

    await get(sim, '/accounts/filtered-accounts/me/');
    const { requests } = (await (await control(sim, 'requests')).json()) as { requests: unknown[] };
    expect(requests).toEqual([expect.objectContaining({ path: '/accounts/filtered-accounts/me/', status: 200 })]);
    expect(sim.requests).toHaveLength(1); // control requests are not logged

    expect(await (await control(sim, 'revise', { method: 'POST' })).json()).toEqual({ revision: 1 });
    expect(sim.revision).toBe(1);

    const changes = (await (await control(sim, 'mutate-roles', { method: 'POST' })).json()) as RoleChanges;
    expect(changes.added.length + changes.removed.length + changes.changed.length).toBeGreaterThan(0);

    const text = await control(sim, 'faults', { method: 'POST', body: '503=1@venue-roles,retry-after=4' });
    expect(text.status).toBe(200);
    expect(sim.faults).toEqual({ rules: [{ kind: '503', rate: 1, stream: 'venue-roles' }], retryAfterSeconds: 4 });
    const json = await control(sim, 'faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: '429=1' }) });
    expect(await json.json()).toEqual({ faults: { rules: [{ kind: '429', rate: 1 }] } });
    expect((await get(sim, '/accounts/filtered-accounts/me/')).status).toBe(429);

    await control(sim, 'requests', { method: 'DELETE' });
    expect(sim.requests).toEqual([]);
  });

  it('refuse a bad token, a bad fault spec, an unknown action and revise without late data', async () => {
    const sim = await simulator();
    expect((await fetch(`${sim.url}/__sim/world`)).status).toBe(401);
    const bad = await control(sim, 'faults', { method: 'POST', body: '429=7' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(/429/);
    expect((await control(sim, 'faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"faults": 3}' })).status).toBe(400);
    expect((await control(sim, 'nothing')).status).toBe(404);
    expect((await control(sim, 'revise', { method: 'POST' })).status).toBe(409);
  });
});
