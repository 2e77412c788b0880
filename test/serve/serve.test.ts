import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendEvents } from '../../src/simulator/index.js';
import { assertBuilt, duplicateKeys, queryRows, startFixture, type Fixture } from '../e2e/harness.js';
import { AUTH, health, startServe, until, writeServeConfig, type Serve } from './serve-child.js';
import { freePort } from '../free-port.js';
import { waitUntil } from '../wait.js';

let fixture: Fixture;
let running: Serve | undefined;

beforeEach(async () => {
  assertBuilt();
  // Latency makes a sync last longer than its one-second schedule, so ticks meet a running job.
  fixture = await startFixture({ sim: { venues: 2, days: 30, latencyMs: 15 }, config: { sync: { windowDays: 7 } } });
});

afterEach(async () => {
  if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
  running = undefined;
  await fixture.close();
});

describe('venue-etl serve', () => {
  it('runs jobs on a per-second schedule without overlap and stops cleanly on SIGTERM mid-job', async () => {
    // A slower API: a sync lasts longer than its one-second schedule.
    await fixture.close();
    fixture = await startFixture({ sim: { venues: 2, days: 30, latencyMs: 200 }, config: { sync: { windowDays: 7 } } });
    const config = writeServeConfig(fixture, 0, { 'nightly-sync': '* * * * * *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
    running = await startServe(fixture, config, 0);
    const serve = running;

    // A second serve on the same warehouse is refused with a message naming the first.
    const second = await fixture.cli(['serve'], { configPath: config, env: { ...fixture.env, VENUE_RECEIVER_AUTHORIZATION: AUTH } });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already running .*PID \d+/);

    await until(
      'a finished sync, a skipped tick, and a sync running',
      async () => {
        const sync = (await health(serve)).jobs.find((j) => j.name === 'nightly-sync')!;
        return sync.runs >= 2 && sync.skippedOverlaps > 0 && sync.running ? sync : undefined;
      },
      40_000,
    );
    // Let the running sync get past its token check into extraction (the API answered one of its
    // analytics requests), then stop serve mid-job.
    const seen = fixture.sim.requests.length;
    await waitUntil('an analytics request of the running sync', () => fixture.sim.requests.slice(seen).find((r) => r.path.startsWith('/analytics/')));
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    expect(serve.stderr()).toMatch(/stopped/);

    const runs = await queryRows(
      fixture.warehousePath,
      `SELECT status, epoch_ms(started_at) AS started, epoch_ms(finished_at) AS finished FROM sync_runs WHERE job = 'nightly-sync' ORDER BY started_at`,
    );
    expect(runs.length).toBeGreaterThanOrEqual(2);
    // Never two at once: each run started after the previous one finished.
    for (let i = 1; i < runs.length; i++) expect(Number(runs[i]!.started)).toBeGreaterThanOrEqual(Number(runs[i - 1]!.finished));
    // The job stopped mid-run committed what it had and recorded its end: nothing is left 'running'.
    expect(runs.filter((r) => r.status === 'running' || r.finished === null)).toEqual([]);
    const interrupted = await queryRows(
      fixture.warehousePath,
      `SELECT count(*) AS n FROM sync_runs WHERE job = 'nightly-sync' AND json_extract(detail, '$.interrupted') = 'true'`,
    );
    expect(Number(interrupted[0]!.n)).toBe(1);
    expect(await duplicateKeys(fixture.warehousePath)).toEqual({ series: 0, summaries: 0, cursors: 0 });
  });

  it('takes events while a sync runs, refuses none, and merges each distinct event once', async () => {
    const config = writeServeConfig(fixture, 0, { 'nightly-sync': '*/2 * * * * *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
    running = await startServe(fixture, config, 0);
    const serve = running;
    await until('a sync running', async () => ((await health(serve)).jobs.find((j) => j.name === 'nightly-sync')!.running ? true : undefined));

    const { stats, expected } = await sendEvents({
      receiverBaseUrl: serve.url,
      authorization: AUTH,
      world: fixture.sim.world,
      count: 200,
      duplicates: 0.25,
      outOfOrder: true,
      concurrency: 8,
    });
    expect(stats.failed).toBe(0);
    expect(stats.retried).toBe(0);
    expect(stats.acknowledged).toBe(stats.sent);
    await until('every event merged', async () => {
      const h = await health(serve);
      return h.receiver.merged.inserted >= expected.eventIds.length ? h : undefined;
    });
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);

    const ids = (await queryRows(fixture.warehousePath, 'SELECT event_id FROM upsert_events ORDER BY event_id')).map((r) => r.event_id);
    expect(ids).toEqual(expected.eventIds);
    const history = await queryRows(
      fixture.warehousePath,
      'SELECT user_id::VARCHAR AS u, venue_id::VARCHAR AS v, visits_count FROM user_venue_history ORDER BY u, v',
    );
    expect(history.map((h) => [h.u, h.v, Number(h.visits_count)])).toEqual(expected.history.map((h) => [h.userId, h.venueId, h.visitsCount]));
  });

  it('loses no acknowledged event when killed with -9 while a sender posts and retries', async () => {
    // A fixed port: the sender retries the same URL until serve is back. (Taken by another
    // process between the kill and the restart, it would fail the restart, loudly.)
    const port = await freePort();
    const config = writeServeConfig(fixture, port, { 'nightly-sync': '0 0 1 1 *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
    running = await startServe(fixture, config, port);
    const first = running;
    // The sender keeps retrying refused connections while serve is down, as the platform would.
    const sending = sendEvents({
      receiverBaseUrl: first.url,
      authorization: AUTH,
      world: fixture.sim.world,
      count: 400,
      concurrency: 8,
      maxAttempts: 60,
      baseBackoffMs: 50,
      maxBackoffMs: 250,
      deadlineMs: 40_000,
    });
    await until('some events accepted', async () => ((await health(first)).receiver.accepted >= 50 ? true : undefined));
    first.child.kill('SIGKILL');
    await first.exited;
    running = await startServe(fixture, config, port);
    const second = running;
    const { stats, acknowledgedIds, expected } = await sending;
    expect(stats.retried).toBeGreaterThan(0); // the kill really interrupted deliveries
    expect(stats.failed).toBe(0);
    await until('every event merged', async () => {
      const merged = (await health(second)).receiver.merged;
      return merged.inserted + merged.duplicates >= expected.eventIds.length - 50 ? true : undefined;
    });
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    // What the first process acknowledged was merged by the second from its journal.
    const stored = new Set((await queryRows(fixture.warehousePath, 'SELECT event_id FROM upsert_events')).map((r) => String(r.event_id)));
    expect([...acknowledgedIds].filter((id) => !stored.has(id))).toEqual([]);
    expect([...stored].sort()).toEqual(expected.eventIds);
  });
});
