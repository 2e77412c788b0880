/**
 * Stopping with signals. (1) `serve` gets SIGTERM right after its receiver acknowledged a few
 * hundred events: the graceful stop must merge them before it exits. (2) sync, backfill and
 * serve (a job running) get a signal and then a second one while a commit is in progress (the
 * warehouse's test hook holds every transaction before COMMIT): the second signal may hurry
 * the stop, but the run must be recorded — finished, status partial or failed, the reason in
 * its detail, every planned slice in exactly one count — before the process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { sendEvents } from '../../src/simulator/index.js';
import { addDays, assertBuilt, CLI, queryRows, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { AUTH, startServe, writeServeConfig } from '../serve/serve-child.js';
import { budget, reportFigure, reportTable, size } from './figures.js';

const PAUSE_ENV = 'VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS';
const NEVER = '0 0 1 1 *';
const fixtures: Fixture[] = [];
const children: ChildProcess[] = [];

beforeAll(() => assertBuilt());
afterEach(async () => {
  // A failed expectation must not leave a serve or sync behind.
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

async function fixture(latencyMs: number): Promise<Fixture> {
  const started = await startFixture({ sim: { venues: 3, days: 60, latencyMs }, config: { sync: { startDate: addDays(todayUtc(), -50), windowDays: 7 } } });
  fixtures.push(started);
  return started;
}

it(
  'merges every acknowledged event when serve gets SIGTERM right after acknowledging them',
  async () => {
    const rows = [];
    for (let trial = 0; trial < size(1, 3); trial++) {
      const fx = await fixture(0);
      const config = writeServeConfig(fx, 0, { 'nightly-sync': NEVER, 'roles-snapshot': NEVER, 'parquet-export': NEVER });
      const serve = await startServe(fx, config, 0);
      children.push(serve.child);
      const { stats, expected } = await sendEvents({ receiverBaseUrl: serve.url, authorization: AUTH, world: fx.sim.world, count: 300, concurrency: 8 });
      expect(stats.acknowledged).toBe(300);
      serve.child.kill('SIGTERM');
      const exit = await serve.exited;
      const stored = await queryRows(fx.warehousePath, 'SELECT count(*)::INTEGER AS n FROM upsert_events');
      const journal = join(fx.dir, 'journal');
      const segmentsLeft = existsSync(journal) ? readdirSync(journal).filter((name) => name.endsWith('.journal')).length : 0;
      rows.push({ trial, acknowledged: stats.acknowledged, merged: Number(stored[0]!.n), distinct: expected.eventIds.length, segmentsLeft, exit: exit.code });
      expect(exit.code, serve.stderr()).toBe(0);
      expect(Number(stored[0]!.n)).toBe(expected.eventIds.length);
      expect(segmentsLeft).toBe(0);
    }
    reportTable('SIGTERM right after acknowledged events', rows);
    reportFigure('sigterm-events-merged', {
      trials: rows.length,
      acknowledged: rows.reduce((n, r) => n + r.acknowledged, 0),
      merged: rows.reduce((n, r) => n + r.merged, 0),
    });
  },
  budget(60_000, 180_000),
);

interface Stopped {
  readonly command: string;
  readonly moment: number;
  readonly exit: number | null;
  readonly stderr: string;
}

/** Starts `args`, waits for the `moment`-th transaction held before COMMIT, sends `signal` twice (100 ms apart). */
async function stopTwice(fx: Fixture, args: readonly string[], signal: NodeJS.Signals, moment: number, startedWhen?: RegExp): Promise<Stopped> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: fx.dir,
    env: { ...fx.env, VENUE_RECEIVER_AUTHORIZATION: AUTH, [PAUSE_ENV]: '600' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let paused = 0;
  let sent = false;
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stdout.resume();
  const reached = new Promise<void>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (startedWhen && !startedWhen.test(stderr)) return;
      paused = stderr.split('paused before commit').length - 1;
      if (paused >= moment && !sent) {
        sent = true;
        resolve();
      }
    });
  });
  await Promise.race([reached, exited]);
  child.kill(signal);
  await delay(100);
  child.kill(signal);
  const exit = await Promise.race([exited, delay(30_000).then(() => 'hung' as const)]);
  if (exit === 'hung') {
    child.kill('SIGKILL');
    throw new Error(`${args[0]} did not exit within 30 s after two signals:\n${stderr.slice(-3000)}`);
  }
  return { command: args[0]!, moment, exit, stderr };
}

it(
  'records the run before exiting when a second signal hurries sync, backfill and serve',
  async () => {
    const moments = size([4], [3, 4, 6]);
    const rows = [];
    for (const moment of moments) {
      for (const command of ['sync', 'backfill', 'serve'] as const) {
        const fx = await fixture(40);
        let stopped: Stopped;
        if (command === 'serve') {
          const config = writeServeConfig(fx, 0, { 'nightly-sync': '* * * * * *', 'roles-snapshot': NEVER, 'parquet-export': NEVER });
          stopped = await stopTwice(fx, ['serve', '--config', config], 'SIGTERM', moment, /job started/);
        } else {
          const args = command === 'sync' ? ['sync'] : ['backfill', '--from', addDays(todayUtc(), -50), '--to', addDays(todayUtc(), -1)];
          stopped = await stopTwice(fx, [...args, '--config', fx.configPath, '--log-level', 'info'], 'SIGINT', moment);
        }
        const runs = await queryRows(
          fx.warehousePath,
          `SELECT status, finished_at IS NOT NULL AS finished, detail->>'interruption' AS interruption, detail->'slices' AS slices FROM sync_runs ORDER BY run_id`,
        );
        const interrupted = runs.filter((r) => r.interruption !== null);
        const counts = interrupted.map(
          (r) => JSON.parse(String(r.slices)) as { total: number; done: number; failed: number; skipped: number; doneEarlier: number },
        );
        const summary = [...stopped.stderr.matchAll(/^\{.*"msg":"api summary".*\}$/gm)].map((m) => JSON.parse(m[0]) as { failures: number; aborted: number });
        const row = {
          command,
          moment,
          exit: stopped.exit,
          runs: runs.length,
          leftRunning: runs.filter((r) => r.status === 'running' || r.finished !== true).length,
          withReason: interrupted.filter((r) => /second SIG/.test(String(r.interruption))).length,
          countsAddUp: counts.filter((c) => c.done + c.failed + c.skipped + c.doneEarlier === c.total).length,
          apiFailures: summary.reduce((n, s) => n + s.failures, 0),
        };
        rows.push(row);
        expect(row.runs, stopped.stderr.slice(-3000)).toBeGreaterThan(0);
        expect(row.leftRunning).toBe(0);
        expect(row.withReason).toBe(1);
        expect(interrupted.map((r) => r.status)).toEqual([expect.stringMatching(/^(partial|failed)$/)]);
        expect(row.countsAddUp).toBe(1);
        expect(row.apiFailures).toBe(0);
        // The exit status is the recorded one's: partial 3, failed 1 (serve itself stopped fine: 0).
        expect(stopped.exit).toBe(command === 'serve' ? 0 : interrupted[0]?.status === 'partial' ? 3 : 1);
      }
    }
    reportTable('two signals', rows);
    reportFigure('double-signal', {
      runs: rows.length,
      leftRunning: rows.reduce((n, r) => n + r.leftRunning, 0),
      recordedWithReason: rows.reduce((n, r) => n + r.withReason, 0),
      countsAddUp: rows.reduce((n, r) => n + r.countsAddUp, 0),
    });
  },
  budget(120_000, 360_000),
);
