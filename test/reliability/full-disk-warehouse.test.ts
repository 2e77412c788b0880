/**
 * A full disk under the warehouse (the built CLI, and `serve` in a child process): the warehouse
 * on a small tmpfs this test mounts.
 *
 * - `sync`, the disk filled but for 64 KiB once the file exists: the run must stop at the first
 *   write that finds no room, with VENUE_WAREHOUSE_DISK_FULL and a hint, abandon what is in
 *   flight (no request sent after the error) and not try to write again; a run while the disk
 *   is still full says the same; once space is freed the next run marks the stopped run failed
 *   and loads everything the truth holds.
 * - `serve`, the disk filled while events arrive: /healthz says `degraded`, naming the code,
 *   while the receiver's merges fail, and `ok` again once a merge gets through.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, diffMaps, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from '../e2e/harness.js';
import { expectedSeries, SERIES, storedSeries } from '../e2e/truth.js';
import { eventBody, post } from '../receiver/helpers.js';
import { mountSmallDisk, type SmallDisk } from '../receiver/small-disk.js';
import { AUTH, startServe, until, writeServeConfig } from '../serve/serve-child.js';
import { reportFigure } from './figures.js';

let disk: SmallDisk;
let fixture: Fixture;
let warehousePath: string;
const startDate = addDays(todayUtc(), -60);

beforeAll(async () => {
  assertBuilt();
  disk = mountSmallDisk(32 * 1024 * 1024);
  warehousePath = join(disk.dir, 'sync', 'warehouse.duckdb');
  fixture = await startFixture({
    sim: { seed: 35, venues: 4, days: 90 },
    config: { warehousePath, api: { concurrency: 4 }, sync: { startDate, windowDays: 7 } },
  });
});
afterAll(async () => {
  await fixture?.close();
  disk?.unmount();
});

/** The JSON log lines of a run's stderr (the final error line is plain text). */
function logLines(result: CliResult): Record<string, unknown>[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

it('stops at the first write that finds the disk full, sends no request after it, and the next run marks it failed', async () => {
  // The file exists (schema and one small stream), then the disk is filled but for 64 KiB.
  const created = await fixture.cli(['sync', '--streams', 'venue-roles'], { timeoutMs: 120_000 });
  expect(created.code, describeRun(created)).toBe(0);
  disk.fill(64 * 1024);
  try {
    await fullDiskThenFreed();
  } finally {
    disk.free();
  }
}, 400_000);

/** The sync on the full disk, the one while it is still full, and the one once it is freed. */
async function fullDiskThenFreed(): Promise<void> {
  const before = fixture.sim.requests.length;
  const full = await fixture.cli(['sync', '--format', 'json', '--log-level', 'warn'], { timeoutMs: 120_000 });
  const simRequests = fixture.sim.requests.length - before;
  expect(full.code, describeRun(full)).toBe(1);
  const summary = JSON.parse(full.stdout) as { runId: string; requests: number; fatal?: string; recorded: boolean; slices: { failed: number } };
  expect(summary.fatal).toMatch(/^VENUE_WAREHOUSE_DISK_FULL: the disk holding the warehouse .* is full/);
  expect(summary.fatal).toMatch(/hint: free space there/);
  expect(summary.recorded).toBe(false);
  expect(full.stderr).not.toMatch(/VENUE_ETL_INTERNAL|could not record the failed slice|at .*\.js:\d+/);
  const errors = logLines(full).filter((line) => line.level === 50);
  const stop = errors.find((line) => String(line.msg).startsWith('the run stops here'));
  expect(stop, describeRun(full)).toBeDefined();
  // Requests are counted as they are sent: as many when it stopped as at the end.
  expect(stop?.requests).toBe(summary.requests);
  // The access check, then the run's own requests (an abandoned one may not have left).
  expect(simRequests).toBeLessThanOrEqual(summary.requests + 1);
  // One slice carries the error; nothing else is logged per slice.
  expect(errors.filter((line) => line.code === 'VENUE_WAREHOUSE_DISK_FULL' && line.stream !== undefined)).toHaveLength(1);
  expect(summary.slices.failed).toBe(1);

  // Still full (DuckDB gave back what the refused write took): the same stop, as clearly.
  const still = await fixture.cli(['sync'], { timeoutMs: 120_000 });
  expect(still.code, describeRun(still)).toBe(1);
  expect(`${still.stdout}${still.stderr}`).toMatch(/VENUE_WAREHOUSE_DISK_FULL: the disk holding the warehouse .*\n +hint: free space there/);
  expect(still.stderr).not.toMatch(/VENUE_ETL_INTERNAL|could not record the failed slice/);

  disk.free();
  const after = await fixture.cli(['sync'], { timeoutMs: 180_000 });
  expect(after.code, describeRun(after)).toBe(0);
  const runs = await queryRows(warehousePath, `SELECT run_id, status, detail->>'abandoned' AS abandoned FROM sync_runs ORDER BY started_at`);
  expect(runs.filter((run) => run.status === 'running')).toEqual([]);
  const stopped = runs.find((run) => run.run_id === summary.runId);
  expect(stopped).toMatchObject({ status: 'failed', abandoned: expect.stringMatching(/ended without finishing it/) });

  const range = { venues: fixture.venues, streams: SERIES, from: startDate, to: addDays(todayUtc(), -1) };
  const differences = diffMaps(await storedSeries(warehousePath, range), expectedSeries(fixture.sim, range));
  expect(differences).toEqual({ missing: 0, extra: 0, different: 0, samples: [] });
  reportFigure('full-disk-sync', {
    exit: full.code,
    code: summary.fatal?.split(':')[0],
    requestsAfterStop: summary.requests - Number(stop?.requests),
    errorLines: errors.length,
    failedSlices: summary.slices.failed,
    runsLeftRunning: runs.filter((run) => run.status === 'running').length,
    seriesDifferingAfterRecovery: differences.missing + differences.extra + differences.different,
  });
}

interface Health {
  readonly status: string;
  readonly problems?: readonly { readonly component: string; readonly code?: string; readonly reason: string; readonly since: string }[];
  readonly receiver: { readonly accepted: number; readonly merged: { readonly inserted: number } };
}

it("serve's /healthz says degraded, with the code, while the receiver's merges meet a full disk, and ok once one gets through", async () => {
  const served = await startFixture({
    sim: { seed: 36, venues: 2, days: 10 },
    config: { warehousePath: join(disk.dir, 'serve', 'warehouse.duckdb') },
  });
  try {
    const created = await served.cli(['sync', '--streams', 'venue-roles'], { timeoutMs: 120_000 });
    expect(created.code, describeRun(created)).toBe(0);
    const never = '0 0 1 1 *';
    const config = writeServeConfig(served, 0, { 'nightly-sync': never, 'roles-snapshot': never, 'parquet-export': never });
    const serve = await startServe(served, config, 0);
    const healthz = async (): Promise<Health> => (await (await fetch(`${serve.url}/healthz`)).json()) as Health;
    try {
      expect((await healthz()).status).toBe('ok');
      disk.fill(0);
      // The journal lives on another disk: events are still acknowledged.
      for (let visits = 1; visits <= 5; visits++) {
        expect((await post(serve.url, eventBody({ visits }), { headers: { 'content-type': 'application/json', authorization: AUTH } })).status).toBe(200);
      }
      const degraded = await until('/healthz to say degraded', async () => {
        const health = await healthz();
        return health.status === 'degraded' ? health : undefined;
      });
      expect(degraded.problems?.[0]).toMatchObject({
        component: 'receiver',
        code: 'VENUE_WAREHOUSE_DISK_FULL',
        reason: expect.stringMatching(/hint: free space there/),
      });
      disk.free();
      const recovered = await until('/healthz to say ok with the events merged', async () => {
        const health = await healthz();
        return health.status === 'ok' && health.receiver.merged.inserted === 5 ? health : undefined;
      });
      expect(recovered.problems).toEqual([]);
      reportFigure('full-disk-serve-healthz', {
        whileFull: degraded.status,
        code: degraded.problems?.[0]?.code,
        afterFreed: recovered.status,
        eventsMerged: 5,
      });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  } finally {
    disk.free();
    await served.close();
  }
}, 120_000);
