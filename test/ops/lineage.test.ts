/**
 * OpenLineage end to end: the built CLI's runs POST RunEvents to a server on 127.0.0.1 — START
 * then COMPLETE for a good night, START then FAIL for one that fails at the access check —
 * and every event validates against the official schemas. A lineage endpoint that answers 500
 * or never answers costs bounded retries and leaves the run's outcome alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { startHookServer, type HookServer } from './hook-server.js';
import { lineageProblems } from './openlineage-schema.js';
import { endType, runEvent } from '../../src/lineage/index.js';
import type { RunEnded } from '../../src/lifecycle/index.js';

let fx: Fixture;
let server: HookServer;

beforeAll(async () => {
  assertBuilt();
  server = await startHookServer();
  fx = await startFixture({ sim: { venues: 2 }, config: { sync: { startDate: addDays(todayUtc(), -4) } } });
});

afterAll(async () => {
  await fx?.close();
  await server?.close();
});

const lineage = (path: string, timeoutMs = 2_000) => ({ lineage: { url: `${server.url}${path}`, namespace: 'venue-etl-test', timeoutMs } });

describe('OpenLineage RunEvents', () => {
  it('a good night: START then COMPLETE, inputs the API endpoints, outputs the tables with schema and row counts', async () => {
    fx.writeConfig({ blocks: lineage('/lineage') });
    const run = await fx.cli(['sync']);
    expect(run.code, describeRun(run)).toBe(0);
    const events = server.on('/lineage').map((r) => r.json);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    for (const event of events) expect(lineageProblems(event)).toEqual([]);
    interface Event {
      run: { runId: string };
      job: unknown;
      inputs: { name: string }[];
      outputs: { name: string; facets: { schema: { fields: { name: string }[] } }; outputFacets: { outputStatistics: { rowCount: number } } }[];
    }
    const [start, complete] = events as unknown as [Event, Event];
    expect(start.run.runId).toBe(complete.run.runId);
    expect(complete.job).toMatchObject({ namespace: 'venue-etl-test', name: 'sync' });
    expect(complete.inputs.map((i) => i.name)).toContain('/analytics/venue-devices-history/{venue_id}/');
    const series = complete.outputs.find((o) => o.name === 'series_points')!;
    expect(series.outputFacets.outputStatistics.rowCount).toBeGreaterThan(0);
    expect(series.facets.schema.fields.map((f) => f.name)).toContain('venue_id');
    expect(JSON.stringify(events)).not.toContain(fx.sim.token);
  });

  it('a night that fails at the access check: START then FAIL with the error message', async () => {
    // One retry: the night fails the same way, without waiting out the default retries' backoff (51 s).
    fx.writeConfig({ api: { maxRetries: 1 }, blocks: lineage('/lineage-fail') });
    fx.sim.setFaults('500=1');
    const run = await fx.cli(['sync'], { timeoutMs: 90_000 });
    fx.sim.setFaults('');
    expect(run.code, describeRun(run)).toBe(1);
    const events = server.on('/lineage-fail').map((r) => r.json);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
    for (const event of events) expect(lineageProblems(event)).toEqual([]);
    expect((events[1]!.run as { facets: { errorMessage: { message: string } } }).facets.errorMessage.message).toMatch(/^VENUE_API_RETRIES_EXHAUSTED: /);
  });

  it('an endpoint that answers 500, or never answers: retried, bounded, the run unaffected', async () => {
    for (const path of ['/fail-lineage', '/hang-lineage']) {
      fx.writeConfig({ api: { maxRetries: 1 }, blocks: lineage(path, 500) });
      const run = await fx.cli(['sync'], { timeoutMs: 120_000 });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stderr).toMatch(/lineage event not taken; the run is not affected/);
      // Two events, each retried with doubling backoff for at most 10 s: a handful of attempts, not an endless loop.
      expect(server.on(path).length).toBeGreaterThanOrEqual(2);
      expect(server.on(path).length).toBeLessThanOrEqual(20);
    }
  }, 150_000);

  it('a run stopped by a signal ends with ABORT', () => {
    const run = { job: 'sync', command: 'sync', warehousePath: 'w', runId: '20261127T000000000Z-abcdef', startedAt: new Date(), streams: [] };
    const ended = {
      ...run,
      outcome: 'partial',
      interrupted: true,
      finishedAt: new Date(),
      durationMs: 1,
      beforeFirstSlice: false,
      failures: [],
      failuresTotal: 0,
      drift: [],
    } as RunEnded;
    expect(endType(ended)).toBe('ABORT');
    const event = runEvent(endType(ended), 'venue-etl', ended);
    expect(lineageProblems(event)).toEqual([]);
    // The validation can fail: a run id that is not a UUID, a facet under a name its schema does not define.
    expect(lineageProblems({ ...event, run: { runId: ended.runId } })).not.toEqual([]);
    const run2 = event.run as { runId: string; facets: Record<string, unknown> };
    expect(lineageProblems({ ...event, run: { ...run2, facets: { nominal: run2.facets.nominalTime } } })).not.toEqual([]);
  });
});
