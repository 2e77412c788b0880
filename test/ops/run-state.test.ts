/**
 * Progress while a run holds the warehouse: `status` reads the run-state file beside the
 * warehouse instead of failing on the lock; a file left by a killed process is recognised as
 * such; serve's /metrics shows the run's figures.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../src/metrics/index.js';
import { addDays, assertBuilt, CLI, describeRun, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { eventually } from './prometheus.js';

let fx: Fixture | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** A sync of a slow API (each answer 300 ms late) in a child process, so it holds the warehouse a while. */
async function slowSync(fixture: Fixture) {
  const child = spawn(process.execPath, [CLI, 'sync', '--config', fixture.configPath], {
    cwd: fixture.dir,
    env: fixture.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stateFile = `${fixture.warehousePath}.run-state.json`;
  await eventually(
    'the run-state file of the running sync',
    async () => (existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).slicesTotal > 0 ? true : undefined),
    60_000,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${stderr}`);
  });
  return { child, exited, stateFile, stderr: () => stderr };
}

describe('the run-state file', () => {
  it('status shows the running sync while it holds the warehouse, at once, and the file goes when it ends', async () => {
    fx = await startFixture({ sim: { venues: 3, latencyMs: 300 }, config: { api: { concurrency: 2 }, sync: { startDate: addDays(todayUtc(), -12) } } });
    const sync = await slowSync(fx);
    const status = await fx.cli(['status']);
    expect(status.code, describeRun(status)).toBe(0);
    expect(status.stdout).toMatch(/is held by a running job/);
    expect(status.stdout).toMatch(/sync run \S+ is running \(pid \d+\)/);
    expect(status.stdout).toMatch(/slices: +\d+ of \d+ done/);
    expect(status.stdout).not.toMatch(/VENUE_WAREHOUSE_LOCKED/);
    const json = JSON.parse((await fx.cli(['status', '--format', 'json'])).stdout);
    expect(json).toMatchObject({ locked: true, runState: { job: 'sync', command: 'sync', alive: true, pid: sync.child.pid } });
    expect(json.runState.slicesTotal).toBeGreaterThan(0);
    expect(await sync.exited, sync.stderr()).toBe(0);
    expect(existsSync(sync.stateFile)).toBe(false);
  }, 180_000);

  it('a file left by a killed run is recognised as such', async () => {
    fx = await startFixture({ sim: { venues: 3, latencyMs: 300 }, config: { api: { concurrency: 2 }, sync: { startDate: addDays(todayUtc(), -12) } } });
    const sync = await slowSync(fx);
    sync.child.kill('SIGKILL');
    await sync.exited;
    expect(existsSync(sync.stateFile)).toBe(true);
    const status = await fx.cli(['status']);
    expect(status.code, describeRun(status)).toBe(0);
    expect(status.stdout).toMatch(/left by a process that is gone \(pid \d+\): sync run \S+ did not finish/);
    const json = JSON.parse((await fx.cli(['status', '--format', 'json'])).stdout);
    expect(json.runState).toMatchObject({ alive: false, pid: sync.child.pid });
  }, 180_000);

  it("serve's /metrics carries the running run's figures, and flags an orphaned file", async () => {
    const state = {
      version: 1 as const,
      job: 'nightly-sync',
      command: 'sync',
      runId: 'r1',
      pid: 1,
      host: 'h',
      startedAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:02Z',
      slicesDone: 5,
      slicesTotal: 20,
      requests: 40,
      rows: 100,
      requestsPerSecond: 20,
      etaSeconds: 6,
    };
    let alive: boolean | undefined = true;
    const metrics = new ServeMetrics({ receiver: () => undefined, maxJournalBytes: 1, runState: () => ({ state, alive, ageSeconds: 1 }) });
    const live = await metrics.text();
    expect(live).toMatch(/^venue_etl_run_in_progress\{job="nightly-sync"\} 1$/m);
    expect(live).toMatch(/^venue_etl_run_slices_done\{job="nightly-sync"\} 5$/m);
    expect(live).toMatch(/^venue_etl_run_slices_planned\{job="nightly-sync"\} 20$/m);
    expect(live).toMatch(/^venue_etl_run_state_orphaned 0$/m);
    alive = false;
    const orphaned = await metrics.text();
    expect(orphaned).toMatch(/^venue_etl_run_state_orphaned 1$/m);
    expect(orphaned).not.toMatch(/^venue_etl_run_in_progress\{/m);
  });
});
