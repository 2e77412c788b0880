import { afterEach, describe, expect, it } from 'vitest';
import { DRIFT_EXTRA_ATTRIBUTE, FaultSpecError, decideFaults, parseFaultSpec, startSimulator, toFaultSpec, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { JSONAPI, TODAY, get } from './helpers.js';

const started: Simulator[] = [];
async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ seed: 9, venues: 3, days: 30, today: TODAY, ...options });
  started.push(sim);
  return sim;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

describe('fault spec', () => {
  it('parses the full grammar', () => {
    const spec = parseFaultSpec(
      '429=0.1,500=0.05,502=0.02,503=0.02,504=0.01,reset=0.02,truncate=0.02,slow=0.01,malformed=0.01,errors-body=0.01,' +
        'drift-extra=0.05,drift-missing=1@venue-users-history,retry-after=2,slow-ms=3000',
    );
    expect(spec.rules).toHaveLength(12);
    expect(spec.rules[0]).toEqual({ kind: '429', rate: 0.1 });
    expect(spec.rules.at(-1)).toEqual({ kind: 'drift-missing', rate: 1, stream: 'venue-users-history' });
    expect(spec.retryAfterSeconds).toBe(2);
    expect(spec.slowMs).toBe(3000);
    expect(parseFaultSpec('').rules).toEqual([]);
    expect(parseFaultSpec('none').rules).toEqual([]);
  });

  it('reports every problem at once, with the grammar as hint', () => {
    let error: unknown;
    try {
      parseFaultSpec('429=1.5,teapot=0.1,500=0.1@nowhere,retry-after=soon,junk');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FaultSpecError);
    const { problems, exitCode, hint } = error as FaultSpecError;
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/429.*0 to 1[\s\S]*teapot[\s\S]*nowhere[\s\S]*retry-after[\s\S]*junk/);
    expect(exitCode).toBe(2);
    expect(hint).toContain('KIND=RATE');
    expect(() => parseFaultSpec('429=0.6,500=0.6')).toThrow(/more than 1/);
    expect(() => toFaultSpec({ rules: [{ kind: 'nope' as '429', rate: 0.1 }] })).toThrow(FaultSpecError);
    expect(toFaultSpec({ rules: [{ kind: '503', rate: 0.5, stream: 'venue-roles' }] }).rules).toHaveLength(1);
  });

  it('decides from (seed, kind, URL, n) only', () => {
    const spec = parseFaultSpec('429=0.3,drift-extra=0.3');
    const run = (): string[] => Array.from({ length: 200 }, (_, n) => JSON.stringify(decideFaults(42, spec, `/u/${n % 7}`, 'x', n)));
    expect(run()).toEqual(run());
    const scoped = parseFaultSpec('500=1@venue-roles');
    expect(decideFaults(1, scoped, '/core/venue-roles/', 'venue-roles', 0).response).toBe('500');
    expect(decideFaults(1, scoped, '/core/project-roles/', 'project-roles', 0).response).toBeUndefined();
  });
});

describe('faults over HTTP', () => {
  async function statusesByUrl(sim: Simulator): Promise<Map<string, number[]>> {
    const urls = Array.from({ length: 10 }, (_, i) => `/accounts/filtered-accounts/me/?probe=${i}`);
    const jobs = urls.flatMap((url) => Array.from({ length: 100 }, () => url));
    const result = new Map<string, number[]>(urls.map((u) => [u, []]));
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const url = jobs[next++]!;
        result.get(url)!.push((await get(sim, url)).status);
      }
    }));
    return result;
  }

  it('hits the configured rate, reproducibly, whatever the concurrency', async () => {
    const first = await simulator({ faults: '429=0.1,retry-after=3' });
    const a = await statusesByUrl(first);
    const all = [...a.values()].flat();
    const rate = all.filter((s) => s === 429).length / all.length;
    expect(all).toHaveLength(1000);
    expect(rate).toBeGreaterThan(0.07);
    expect(rate).toBeLessThan(0.13);
    expect(new Set(all)).toEqual(new Set([200, 429]));
    const throttled = first.requests.filter((r) => r.status === 429);
    expect(throttled.every((r) => r.fault === '429')).toBe(true);
    expect(first.requests.filter((r) => r.fault !== undefined)).toHaveLength(throttled.length);

    const second = await simulator({ faults: '429=0.1,retry-after=3' });
    const b = await statusesByUrl(second);
    // Per URL, the n-th request gets the same decision in both runs.
    for (const [url, statuses] of a) expect(b.get(url)!.filter((s) => s === 429).length).toBe(statuses.filter((s) => s === 429).length);
  });

  it('gives a retry of the same URL a fresh decision; 429 carries Retry-After', async () => {
    const sim = await simulator({ faults: '429=0.5,retry-after=3' });
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push(await get(sim, '/accounts/filtered-accounts/me/'));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200, 429]));
    const throttled = answers.find((a) => a.status === 429)!;
    expect(throttled.headers.get('retry-after')).toBe('3');
    expect(throttled.body.errors[0].status).toBe('429');
  });

  it.each(['500', '502', '503', '504'])('%s answers an HTML error page', async (kind) => {
    const sim = await simulator({ faults: `${kind}=1` });
    const answer = await get(sim, '/accounts/filtered-accounts/me/');
    expect(answer.status).toBe(Number(kind));
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(answer.body).toBeUndefined();
  });

  it('errors-body answers 500 with a JSON:API errors document', async () => {
    const sim = await simulator({ faults: 'errors-body=1' });
    const answer = await get(sim, '/accounts/filtered-accounts/me/');
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe(JSONAPI);
    expect(answer.body).toMatchObject({ errors: [{ status: '500' }], jsonapi: { version: '1.0' } });
  });

  it('reset drops the connection without an answer; truncate ends the body early', async () => {
    const sim = await simulator({ faults: 'reset=1' });
    await expect(get(sim, '/accounts/filtered-accounts/me/')).rejects.toThrow();
    await expect.poll(() => sim.requests.at(-1)).toMatchObject({ status: 0, fault: 'reset' });
    sim.setFaults('truncate=1');
    await expect(get(sim, '/accounts/filtered-accounts/me/')).rejects.toThrow();
    expect(sim.requests.at(-1)).toMatchObject({ status: 200, fault: 'truncate' });
  });

  it('malformed answers 200 with a body that is not JSON', async () => {
    const sim = await simulator({ faults: 'malformed=1' });
    const answer = await get(sim, '/accounts/filtered-accounts/me/');
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it('slow drips the correct body over slow-ms; latencyMs delays every answer', async () => {
    const sim = await simulator({ faults: 'slow=1,slow-ms=300' });
    let started = performance.now();
    const answer = await get(sim, '/accounts/filtered-accounts/me/');
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(answer.body.data).toEqual(sim.truth.account('me'));

    const delayed = await simulator({ latencyMs: 150 });
    started = performance.now();
    expect((await get(delayed, '/accounts/filtered-accounts/me/')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drift faults change the resources of successful answers only', async () => {
    const sim = await simulator();
    const venueId = sim.world.venues[0]!.id;
    const summary = `/analytics/venue-users-summary/${venueId}/?from=2026-03-01&to=2026-03-05`;
    const truth = sim.truth.summaryResource(venueId, 'venue-users-summary', '2026-03-01', '2026-03-05');

    sim.setFaults('drift-extra=1');
    expect((await get(sim, summary)).body.data.attributes[DRIFT_EXTRA_ATTRIBUTE]).toBeDefined();
    sim.setFaults('drift-missing=1');
    expect(Object.keys((await get(sim, summary)).body.data.attributes)).toHaveLength(Object.keys(truth.attributes).length - 1);
    sim.setFaults('drift-string-number=1');
    expect((await get(sim, summary)).body.data.attributes.logins).toBe(String(truth.attributes.logins));
    sim.setFaults('drift-null-id=1');
    const roles = await get(sim, `/core/venue-roles/?filter[venue]=${venueId}`);
    expect(roles.body.data.every((r: { id: unknown }) => r.id === null)).toBe(true);
    sim.setFaults('drift-version=1,drift-extra=1');
    const both = await get(sim, summary);
    expect(both.body.jsonapi.version).toBe('2.0');
    expect(sim.requests.at(-1)!.fault).toBe('drift-version,drift-extra'); // in spec order
    const notFound = await get(sim, '/analytics/venue-users-summary/00000000-0000-4000-8000-000000000000/');
    expect(notFound.status).toBe(404);
    expect(notFound.body.jsonapi.version).toBe('1.0');
    expect(sim.requests.at(-1)!.fault).toBeUndefined();
  });

  it('a scoped fault hits only its stream', async () => {
    const sim = await simulator({ faults: '503=1@venue-users-history' });
    const venueId = sim.world.venues[0]!.id;
    expect((await get(sim, `/analytics/venue-users-history/${venueId}/?from=2026-03-01&to=2026-03-02`)).status).toBe(503);
    expect((await get(sim, `/analytics/venue-devices-history/${venueId}/?from=2026-03-01&to=2026-03-02`)).status).toBe(200);
    expect((await get(sim, '/accounts/filtered-accounts/me/')).status).toBe(200);
  });

  it('close() ends a slow answer and keep-alive sockets promptly', async () => {
    const sim = await simulator({ faults: 'slow=1,slow-ms=20000' });
    const pending = get(sim, '/accounts/filtered-accounts/me/').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await sim.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
