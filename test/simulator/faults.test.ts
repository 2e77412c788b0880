import { get as httpGet, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DRIFT_EXTRA_ATTRIBUTE,
  FaultSpecError,
  decideFaults,
  parseFaultSpec,
  startSimulator,
  toFaultSpec,
  type Simulator,
  type SimulatorOptions,
} from '../../src/simulator/index.js';
import { JSONAPI, TODAY, documentOf, get, list, seriesOf, single } from './helpers.js';

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

  it('parses a schedule (#ATTEMPT) and checks exclusive rates per attempt', () => {
    expect(parseFaultSpec('500=1@venue-roles#2,429=0.5#1').rules).toEqual([
      { kind: '500', rate: 1, stream: 'venue-roles', attempt: 2 },
      { kind: '429', rate: 0.5, attempt: 1 },
    ]);
    // Scheduled rules and rate rules are decided apart: each group fits into 1 on its own.
    expect(parseFaultSpec('500=1#1,502=1#2,429=1').rules).toHaveLength(3);
    expect(() => parseFaultSpec('500=1#1,502=0.5#1')).toThrow(/1\.500 \(more than 1\) at #1/);
    expect(() => parseFaultSpec('500=0.1#0,502=0.1#x,retry-after=2#1')).toThrow(FaultSpecError);
    expect(toFaultSpec({ rules: [{ kind: '503', rate: 1, attempt: 3 }] }).rules[0]?.attempt).toBe(3);
    expect(() => toFaultSpec({ rules: [{ kind: '503', rate: 1, attempt: 0 }] })).toThrow(FaultSpecError);
  });

  it('decides a schedule first, on its attempt only, without moving the other draws', () => {
    const url = '/core/venue-roles/?filter[venue]=v';
    const chain = parseFaultSpec('500=1@venue-roles#1,502=1@venue-roles#2');
    expect([0, 1, 2].map((n) => decideFaults(7, chain, url, 'venue-roles', n).response)).toEqual(['500', '502', undefined]);
    expect(decideFaults(7, chain, url, 'project-roles', 0).response).toBeUndefined();
    const drawn = parseFaultSpec('429=0.5');
    const both = parseFaultSpec('429=0.5,reset=1#1');
    const responses = (spec: typeof drawn): (string | undefined)[] =>
      Array.from({ length: 40 }, (_, n) => decideFaults(7, spec, url, 'venue-roles', n).response);
    expect(responses(both)[0]).toBe('reset');
    expect(responses(both).slice(1)).toEqual(responses(drawn).slice(1));
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
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs.length) {
          const url = jobs[next++]!;
          result.get(url)!.push((await get(sim, url)).status);
        }
      }),
    );
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
    expect(documentOf(throttled).errors?.[0]?.status).toBe('429');
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
    expect(single(answer)).toEqual(sim.truth.account('me'));

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
    expect(single(await get(sim, summary)).attributes[DRIFT_EXTRA_ATTRIBUTE]).toBeDefined();
    sim.setFaults('drift-missing=1');
    expect(Object.keys(single(await get(sim, summary)).attributes)).toHaveLength(Object.keys(truth.attributes).length - 1);
    sim.setFaults('drift-string-number=1');
    expect(single(await get(sim, summary)).attributes.logins).toBe(String(truth.attributes.logins));
    sim.setFaults('drift-null-id=1');
    const roles = await get(sim, `/core/venue-roles/?filter[venue]=${venueId}`);
    expect(list(roles).data.every((r) => r.id === null)).toBe(true);
    sim.setFaults('drift-version=1,drift-extra=1');
    const both = await get(sim, summary);
    expect(documentOf(both).jsonapi.version).toBe('2.0');
    expect(sim.requests.at(-1)!.fault).toBe('drift-version,drift-extra'); // in spec order
    const notFound = await get(sim, '/analytics/venue-users-summary/00000000-0000-4000-8000-000000000000/');
    expect(notFound.status).toBe(404);
    expect(documentOf(notFound).jsonapi.version).toBe('1.0');
    expect(sim.requests.at(-1)!.fault).toBeUndefined();
  });

  it('a scoped fault hits only its stream', async () => {
    const sim = await simulator({ faults: '503=1@venue-users-history' });
    const venueId = sim.world.venues[0]!.id;
    expect((await get(sim, `/analytics/venue-users-history/${venueId}/?from=2026-03-01&to=2026-03-02`)).status).toBe(503);
    expect((await get(sim, `/analytics/venue-devices-history/${venueId}/?from=2026-03-01&to=2026-03-02`)).status).toBe(200);
    expect((await get(sim, '/accounts/filtered-accounts/me/')).status).toBe(200);
  });

  it('applies a schedule to the N-th request of a URL and logs which request it was', async () => {
    const sim = await simulator({ faults: '503=1#1,errors-body=1#2' });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await get(sim, '/accounts/filtered-accounts/me/')).status);
    expect(statuses).toEqual([503, 500, 200]);
    expect(sim.requests.map((r) => [r.attempt, r.fault])).toEqual([
      [1, '503'],
      [2, 'errors-body'],
      [3, undefined],
    ]);
  });

  /** Sends a GET and resolves once the answer's headers are in: a slow body is then dripping. */
  function headersOf(sim: Simulator, path: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      httpGet(`${sim.url}${path}`, { headers: { authorization: `Bearer ${sim.token}`, accept: JSONAPI } }, resolve).on('error', reject);
    });
  }

  // A drip of ten minutes: waiting it out would fail on the test's timeout, so neither test
  // below depends on how fast the machine is.
  it('stops dripping when the client hangs up, and logs the answer then (settled)', async () => {
    const sim = await simulator({ faults: 'slow=1,slow-ms=600000' });
    const answer = await headersOf(sim, '/accounts/filtered-accounts/me/');
    expect(answer.statusCode).toBe(200);
    answer.destroy();
    await sim.settled();
    expect(sim.requests).toEqual([expect.objectContaining({ status: 200, fault: 'slow', attempt: 1 })]);
  });

  it('close() ends a slow answer and keep-alive sockets without waiting for them', async () => {
    const sim = await simulator({ faults: 'slow=1,slow-ms=600000' });
    const answer = await headersOf(sim, '/accounts/filtered-accounts/me/');
    const ended = new Promise<boolean>((resolve) => answer.on('close', () => resolve(answer.complete)).resume());
    await sim.close();
    expect(await ended).toBe(false);
  });
});

describe('hostile answers', () => {
  const VENUE_PATH = (sim: Simulator, stream: string, from: string, to: string): string =>
    `/analytics/${stream}/${sim.world.venues[0]!.id}/?from=${from}&to=${to}`;

  it('sends a Date header that follows the simulated today, on answers and faults alike', async () => {
    const sim = await simulator();
    for (const faults of ['none', '503=1', 'errors-body=1']) {
      sim.setFaults(faults);
      const answer = await get(sim, '/accounts/filtered-accounts/me/');
      const date = new Date(answer.headers.get('date')!);
      expect(date.toISOString().slice(0, 10), faults).toBe(TODAY);
    }
  });

  it('empty-series and short-series take points away; the document stays valid', async () => {
    const sim = await simulator({ faults: 'empty-series=1@venue-devices-history' });
    const path = VENUE_PATH(sim, 'venue-devices-history', '2026-03-01', '2026-03-05');
    const empty = await get(sim, path);
    expect(empty.status).toBe(200);
    expect(Object.values(single(empty).attributes)).toEqual([[], [], [], []]);
    expect(sim.requests.at(-1)!.fault).toBe('empty-series');
    sim.setFaults('short-series=1');
    const short = await get(sim, path);
    for (const points of Object.values(single(short).attributes)) expect(points).toHaveLength(4);
  });

  it('empty-list answers a list without resources', async () => {
    const sim = await simulator({ faults: 'empty-list=1' });
    const answer = await get(sim, `/statistics/rating-statistics-summaries/?filter[venue]=${sim.world.venues[0]!.id}&from=2026-03-01&to=2026-03-05`);
    expect(list(answer).data).toEqual([]);
    expect(list(answer).meta?.count).toBe(0);
  });

  it('wrong-scope names the next venue or project of the world', async () => {
    const sim = await simulator({ faults: 'wrong-scope=1' });
    const [a, b] = sim.world.venues.map((v) => v.id);
    const stats = await get(sim, `/statistics/rating-statistics-summaries/?filter[venue]=${a}&from=2026-03-01&to=2026-03-05`);
    expect(list(stats).data[0]?.relationships?.venue?.data.id).toBe(b);
    const roles = await get(sim, `/core/venue-roles/?filter[venue]=${a}`);
    expect(list(roles).data.every((r) => r.relationships?.venue?.data.id === b)).toBe(true);
    const history = await get(sim, VENUE_PATH(sim, 'venue-users-history', '2026-03-01', '2026-03-05'));
    expect(single(history).relationships?.venue?.data.id).toBe(b);
  });

  it('offset keeps day points on their date (midnight in the offset) and hour points on their instant', async () => {
    const sim = await simulator({ faults: 'offset=1,utc-offset=+02:00' });
    const days = await get(sim, VENUE_PATH(sim, 'venue-remarketing-history', '2026-03-01', '2026-03-03'));
    expect(seriesOf(single(days), 'embeds').map(([ts]) => ts)).toEqual(['2026-03-01T00:00:00+02:00', '2026-03-02T00:00:00+02:00', '2026-03-03T00:00:00+02:00']);
    const hours = await get(sim, VENUE_PATH(sim, 'venue-remarketing-history', '2026-03-02', '2026-03-02'));
    const truth = sim.truth.series(sim.world.venues[0]!.id, 'venue-remarketing-history', '2026-03-02', '2026-03-02').points.embeds!;
    expect(seriesOf(single(hours), 'embeds').map(([ts]) => Date.parse(ts))).toEqual(truth.map(([ts]) => Date.parse(ts)));
    expect(seriesOf(single(hours), 'embeds')[0]?.[0]).toBe('2026-03-02T02:00:00+02:00');
  });

  it('repeat-point repeats a timestamp with another value; value kinds send impossible numbers', async () => {
    const sim = await simulator({ faults: 'repeat-point=1' });
    const path = VENUE_PATH(sim, 'rating-history', '2026-03-01', '2026-03-05');
    const repeated = seriesOf(single(await get(sim, path)), 'rates-average');
    expect(repeated).toHaveLength(6);
    expect(repeated[3]![0]).toBe(repeated[2]![0]);
    expect(repeated[3]![1]).not.toBe(repeated[2]![1]);

    const counts: [string, (value: unknown) => boolean][] = [
      ['negative-count', (v) => typeof v === 'number' && v < 0],
      ['fractional-count', (v) => typeof v === 'number' && !Number.isInteger(v)],
      ['huge-count', (v) => v === 1e308],
    ];
    for (const [kind, impossible] of counts) {
      sim.setFaults(`${kind}=1`);
      const series = seriesOf(single(await get(sim, path)), 'rates-count');
      expect(
        series.filter(([, v]) => impossible(v)),
        kind,
      ).toHaveLength(1);
    }
    sim.setFaults('unsafe-count=1');
    expect((await get(sim, path)).text).toContain(',9007199254740993]');
    sim.setFaults('rate-high=1');
    expect(seriesOf(single(await get(sim, path)), 'rates-average')[2]?.[1]).toBe(7);
    sim.setFaults('rate-negative=1');
    const summary = await get(sim, `/analytics/rating-summary/${sim.world.venues[0]!.id}/?from=2026-03-01&to=2026-03-05`);
    expect(single(summary).attributes.average_rate).toBe(-1);
  });

  it('parses utc-offset and refuses a bad one', () => {
    expect(parseFaultSpec('offset=1@rating-history,utc-offset=-05:00')).toEqual({
      rules: [{ kind: 'offset', rate: 1, stream: 'rating-history' }],
      utcOffset: '-05:00',
    });
    expect(() => parseFaultSpec('utc-offset=2h')).toThrow(/utc-offset needs/);
  });
});
