/**
 * Notifications end to end: the built CLI syncs from the simulator and tells a webhook server on
 * 127.0.0.1 how each night went — a partial night, a recovery, a night that fails at the access
 * check, schema drift both ways, a stale stream (once per episode), and hooks that answer 500 or
 * never answer (bounded retries, the run unaffected, `status` says the alert did not go out).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, childEnv, describeRun, queryRows, runsOf, startFixture, todayUtc, TOKEN_ENV, type Fixture } from '../e2e/harness.js';
import { startHookServer, type HookServer } from './hook-server.js';

/** The secret part of the JSON hook's URL: it must show nowhere but in the environment. */
const HOOK_SECRET = 'T0AAA/B0BBB/hook-secret-5f1c9e';
const HOOK_ENV = 'VENUE_TEST_HOOK_URL';

let fx: Fixture;
let hooks: HookServer;
let env: NodeJS.ProcessEnv;

const notifyBlock = (json: string, slack: string, limits = { timeoutMs: 2_000, retryForMs: 6_000 }) => ({
  notify: {
    webhooks: [
      { name: 'ops-json', url: `\${${HOOK_ENV}}`, format: 'json' },
      { name: 'ops-slack', url: `${hooks.url}${slack}`, format: 'slack', events: ['run.failed', 'run.recovered'] },
    ],
    ...limits,
  },
  _json: json,
});

function configure(json: string, slack: string, extra: { warehousePath?: string; limits?: { timeoutMs: number; retryForMs: number } } = {}): void {
  const { _json, ...blocks } = notifyBlock(json, slack, extra.limits);
  env = { ...childEnv({ [TOKEN_ENV]: fx.sim.token }), [HOOK_ENV]: `${hooks.url}${_json}/${HOOK_SECRET}` };
  fx.writeConfig({ api: { maxRetries: 1 }, blocks, ...(extra.warehousePath ? { warehousePath: extra.warehousePath } : {}) });
}

const events = (path: string): Record<string, unknown>[] => hooks.on(path).map((r) => r.json);
const sync = (args: readonly string[] = []) => fx.cli(['sync', ...args], { env, timeoutMs: 90_000 });

beforeAll(async () => {
  assertBuilt();
  hooks = await startHookServer();
  fx = await startFixture({ sim: { venues: 2 }, config: { sync: { startDate: addDays(todayUtc(), -6) } } });
  configure('/json', '/slack');
});

afterAll(async () => {
  await fx?.close();
  await hooks?.close();
});

describe('notifications of a night', () => {
  it('a first good night sends nothing', async () => {
    const run = await sync();
    expect(run.code, describeRun(run)).toBe(0);
    expect(hooks.received).toEqual([]);
  });

  it('a partial night: run.partial names the failed streams and scopes with their codes', async () => {
    fx.sim.setFaults('500=1@venue-users-summary');
    const run = await sync();
    expect(run.code, describeRun(run)).toBe(3);
    const [partial] = events('/json');
    expect(partial).toMatchObject({ version: 1, event: 'run.partial', job: 'sync', outcome: 'partial', beforeFirstSlice: false });
    const failures = partial!.failures as { stream: string; scopeId: string; code: string }[];
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures.map((f) => f.stream))).toEqual(new Set(['venue-users-summary']));
    expect(failures.every((f) => f.code.startsWith('VENUE_API_') && fx.venues.includes(f.scopeId))).toBe(true);
    expect(partial!.nextStep).toMatch(/next run retries/);
    expect(partial!.runId).toBe((await runsOf(fx.warehousePath)).at(-1)!.runId);
    // The Slack hook takes only run.failed and run.recovered.
    expect(hooks.on('/slack')).toEqual([]);
  });

  it('the next good night: run.recovered, in both formats', async () => {
    fx.sim.setFaults('');
    const run = await sync();
    expect(run.code, describeRun(run)).toBe(0);
    expect(events('/json').map((e) => e.event)).toEqual(['run.partial', 'run.recovered']);
    const [slack] = events('/slack');
    expect(slack!.text).toMatch(/^\[venue-etl\] sync run \S+ succeeded after a partial run/);
    expect(Array.isArray(slack!.blocks)).toBe(true);
  });

  it('a night that fails at the access check is recorded as a failed run and notified', async () => {
    fx.sim.setFaults('500=1');
    const run = await sync();
    expect(run.code, describeRun(run)).toBe(1);
    const failed = events('/json').at(-1)!;
    expect(failed).toMatchObject({ event: 'run.failed', beforeFirstSlice: true, error: { code: 'VENUE_API_RETRIES_EXHAUSTED' } });
    const last = (await runsOf(fx.warehousePath)).at(-1)!;
    expect(last).toMatchObject({ runId: failed.runId, job: 'sync', status: 'failed', errors: 1 });
    expect(events('/slack').at(-1)!.text).toMatch(/failed before its first slice: VENUE_API_RETRIES_EXHAUSTED/);
  });

  it('schema drift: an attribute added, then one no longer sent', async () => {
    fx.sim.setFaults('drift-extra=1@venue-devices-history');
    const added = await sync();
    expect(added.code, describeRun(added)).toBe(0);
    const drift = events('/json').filter((e) => e.event === 'schema.drift');
    expect(drift.map((e) => e.drift)).toEqual([[{ stream: 'venue-devices-history', attribute: 'unexpected-attribute', change: 'added' }]]);
    expect(events('/json').at(-2)!.event).toBe('run.recovered');

    fx.sim.setFaults('drift-missing=1@venue-users-summary');
    const missing = await sync();
    expect(missing.code, describeRun(missing)).toBe(3);
    const last = events('/json')
      .filter((e) => e.event === 'schema.drift')
      .at(-1)!;
    expect(last.drift).toEqual([{ stream: 'venue-users-summary', attribute: 'returning-users', change: 'missing' }]);
    fx.sim.setFaults('');
  });

  it('a stale stream: stream.stale once per episode, status marks it, check fails', async () => {
    const stalePath = join(fx.dir, 'data', 'stale.duckdb');
    configure('/json-stale', '/slack-stale', { warehousePath: stalePath });
    const until = addDays(todayUtc(), -5);
    for (let night = 0; night < 2; night++) {
      const run = await sync(['--streams', 'venue-devices-history', '--until', until]);
      expect(run.code, describeRun(run)).toBe(0);
    }
    const stale = events('/json-stale').filter((e) => e.event === 'stream.stale');
    expect(stale).toHaveLength(1);
    expect(stale[0]!.streams).toEqual([{ stream: 'venue-devices-history', newestDay: until, daysBehind: 4, maxAgeDays: 2, stale: true }]);
    const status = await fx.cli(['status', '--format', 'json'], { env });
    const streams = JSON.parse(status.stdout).streams as { stream: string; stale: boolean; max_days_behind: number }[];
    expect(streams).toEqual([expect.objectContaining({ stream: 'venue-devices-history', stale: true, max_days_behind: 2 })]);
    const check = await fx.cli(['check'], { env });
    expect(check.code, describeRun(check)).toBe(1);
    expect(check.stdout).toMatch(/stale-streams\s+FAILED/);

    // Caught up: the episode ends; a later lag starts a new one.
    const caughtUp = await sync(['--streams', 'venue-devices-history']);
    expect(caughtUp.code, describeRun(caughtUp)).toBe(0);
    expect(events('/json-stale').filter((e) => e.event === 'stream.stale')).toHaveLength(1);
  });

  it('a per-stream target: a stream within its own target is not stale', async () => {
    fx.writeConfig({
      api: { maxRetries: 1 },
      warehousePath: join(fx.dir, 'data', 'stale.duckdb'),
      blocks: { freshness: { streams: { 'venue-devices-history': 1 } } },
    });
    const status = await fx.cli(['status', '--format', 'json'], { env });
    const streams = JSON.parse(status.stdout).streams as { stream: string; max_days_behind: number }[];
    expect(streams.map((s) => s.max_days_behind)).toEqual([1]);
  });

  it('hooks that answer 500 or hang: bounded retries, the run unaffected, status says the alert did not go out', async () => {
    configure('/fail', '/hang', { limits: { timeoutMs: 1_000, retryForMs: 3_000 } });
    fx.sim.setFaults('500=1');
    const run = await sync();
    fx.sim.setFaults('');
    expect(run.code, describeRun(run)).toBe(1);
    // Backoff 0.5 s then 1 s: a third attempt would start after 1.5 s plus two attempts, a fourth past 3 s.
    expect(hooks.on('/fail').length).toBeGreaterThanOrEqual(2);
    expect(hooks.on('/fail').length).toBeLessThanOrEqual(3);
    expect(hooks.on('/hang').length).toBeLessThanOrEqual(3);
    const status = await fx.cli(['status'], { env });
    expect(status.code, describeRun(status)).toBe(0);
    expect(status.stdout).toMatch(/last alert failed to deliver/);
    expect(status.stdout).toMatch(/run\.failed to ops-json .*NOT delivered after \d attempts \(HTTP 500\)/);
    expect(status.stdout).toMatch(/run\.failed to ops-slack .*NOT delivered after \d attempts \(no answer within \d+ ms\)/);
  });

  it('no secret in any body, log, output, delivery record or the warehouse', async () => {
    const everything = [
      ...hooks.received.map((r) => r.body),
      readFileSync(`${fx.warehousePath}.notifications.jsonl`, 'utf8'),
      JSON.stringify(await queryRows(fx.warehousePath, 'SELECT detail::VARCHAR AS d FROM sync_runs')),
    ].join('\n');
    expect(hooks.received.length).toBeGreaterThan(5);
    expect(everything).not.toContain(fx.sim.token);
    expect(everything).not.toContain('hook-secret');
    const config = await fx.cli(['config'], { env });
    expect(config.code, describeRun(config)).toBe(0);
    expect(config.stdout).not.toContain('hook-secret');
    expect(config.stdout).toContain('"url": "***"');
  });
});
