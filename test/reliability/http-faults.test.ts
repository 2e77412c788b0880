/**
 * The HTTP fault matrix: a nightly sync through the CLI against the simulator injecting each
 * fault alone, then all of them mixed. Per case: the attempts the API saw, reconciled with the
 * client's own log (every failed attempt explained by an injected fault or by the client's
 * deadline; every `slow` answer given up at the deadline), the wait after each Retry-After the
 * client read, and the data, which must equal a fault-free run. Then the answers that must not
 * be retried: a 404 venue and a refused token (401).
 *
 * Faults are drawn from the simulator's seed per (URL, attempt), and each case also schedules
 * its kinds (`KIND=1@STREAM#N`) so that every kind it tests is injected whatever the date and
 * the URLs it gives. Nothing here depends on how fast the machine answers: an answer the
 * client's deadline cut on a loaded machine is one more explained attempt, not a failure.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/simulator/index.js';
import {
  addDays,
  assertBuilt,
  checksums,
  childEnv,
  CONTENT_COLUMNS,
  describeRun,
  startFixture,
  summaryNumber,
  todayUtc,
  TOKEN_ENV,
  type Checksums,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { reconcile } from './attempt-ledger.js';
import { budget, reportFigure, reportTable, size } from './figures.js';

const TIMEOUT_MS = 1000;
// A slow body drips a tenth every 250 ms: more often than the deadline (an idle timer would
// never fire), and it would end 1.5 s after it.
const SLOW_MS = 2500;
const RETRY_AFTER_S = 1;
const SEED = 31;
// Series, a per-day summary, a paginated list, roles and accounts: every kind of request.
const STREAMS = ['venue-devices-history', 'venue-users-summary', 'rating-statistics-summaries', 'venue-roles', 'project-roles', 'accounts'];
const START = addDays(todayUtc(), -size(5, 12));
const KINDS = ['429', '500', '502', '503', '504', 'reset', 'truncate', 'malformed', 'errors-body', 'slow'] as const;

const fixtureOptions = (faults?: string) => ({
  sim: { seed: SEED, venues: size(3, 6), days: 40, ...(faults ? { faults } : {}) },
  config: {
    sync: { startDate: START, streams: STREAMS },
    api: { timeoutMs: TIMEOUT_MS, maxRetries: 10, concurrency: 4, pageSize: 2 },
  },
});

/** The fault-free run: how many calls the sync makes per URL, and what it loads. */
let clean: { sums: Checksums; calls: ReadonlyMap<string, number>; requests: number };
const fixtures: Fixture[] = [];
async function fixture(faults?: string): Promise<Fixture> {
  const fx = await startFixture(fixtureOptions(faults));
  fixtures.push(fx);
  return fx;
}

beforeAll(
  async () => {
    assertBuilt();
    const fx = await fixture();
    const run = await fx.cli(['sync', '--log-level', 'debug'], { timeoutMs: 120_000 });
    expect(run.code, describeRun(run)).toBe(0);
    await fx.sim.settled();
    const calls = reconcile(fx.sim.requests, run.stderr).calls;
    clean = { sums: await checksums(fx.warehousePath, CONTENT_COLUMNS), calls, requests: [...calls.values()].reduce((n, c) => n + c, 0) };
  },
  budget(150_000, 400_000),
);
afterAll(async () => {
  await Promise.all(fixtures.map((fx) => fx.close()));
});

const RATE = 0.3;
const settings = `retry-after=${RETRY_AFTER_S},slow-ms=${SLOW_MS}`;
/** Each kind alone: drawn at RATE everywhere, and scheduled on the first request of every series URL. */
const alone = (kind: string): string => `${kind}=${RATE},${kind}=1@venue-devices-history#1,${settings}`;
/**
 * All kinds: each scheduled once, two on the first two attempts of series, accounts, project
 * roles and venue roles, one on the first of each summary; and every kind at 0.03 on every
 * other attempt (0.3 together: at 0.6, chains of five faults on one URL made the run wait out
 * the backoff cap).
 */
const MIXED_SCHEDULE = [
  ['venue-devices-history', ['429', 'slow']],
  ['filtered-accounts', ['500', 'truncate']],
  ['project-roles', ['503', 'reset']],
  ['venue-roles', ['502', 'errors-body']],
  ['venue-users-summary', ['504']],
  ['rating-statistics-summaries', ['malformed']],
] as const;
const mixed = [
  ...MIXED_SCHEDULE.flatMap(([stream, kinds]) => kinds.map((kind, i) => `${kind}=1@${stream}#${i + 1}`)),
  ...KINDS.map((kind) => `${kind}=0.03`),
  settings,
].join(',');

const CASES: readonly { name: string; spec: string; kinds: readonly string[] }[] = [
  { name: '429 + Retry-After', spec: alone('429'), kinds: ['429'] },
  { name: '500', spec: alone('500'), kinds: ['500'] },
  { name: '502', spec: alone('502'), kinds: ['502'] },
  { name: '503 + Retry-After', spec: alone('503'), kinds: ['503'] },
  { name: '504', spec: alone('504'), kinds: ['504'] },
  { name: 'connection reset', spec: alone('reset'), kinds: ['reset'] },
  { name: 'truncated body', spec: alone('truncate'), kinds: ['truncate'] },
  { name: 'malformed JSON', spec: alone('malformed'), kinds: ['malformed'] },
  { name: 'JSON:API errors body', spec: alone('errors-body'), kinds: ['errors-body'] },
  { name: 'slow-drip body', spec: alone('slow'), kinds: ['slow'] },
  { name: 'all mixed', spec: mixed, kinds: KINDS },
];

/**
 * Milliseconds from each 429/503 answer to the next request for the same URL (the client's
 * wait, plus transit), by the simulator's arrival times. A request arrives after the client
 * read the answer before it and slept, so no load can shorten this.
 */
function retryAfterWaits(requests: readonly RecordedRequest[]): number[] {
  const byUrl = new Map<string, RecordedRequest[]>();
  for (const r of requests) byUrl.set(`${r.path}?${r.query}`, [...(byUrl.get(`${r.path}?${r.query}`) ?? []), r]);
  const waits: number[] = [];
  for (const list of byUrl.values()) {
    list.sort((a, b) => (a.attempt ?? 0) - (b.attempt ?? 0));
    list.forEach((r, i) => {
      const next = list[i + 1];
      if (next && (r.fault === '429' || r.fault === '503')) waits.push(Date.parse(next.at) - Date.parse(r.at));
    });
  }
  return waits.sort((a, b) => a - b);
}

/** Durations of the client's attempts, from its `api request` debug lines: a figure, not a check. */
function attemptDurations(stderr: string): number[] {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"api request"'))
    .map((line) => Number((JSON.parse(line) as { ms?: number }).ms ?? 0));
}

const sameCalls = (calls: ReadonlyMap<string, number>): boolean =>
  calls.size === clean.calls.size && [...clean.calls].every(([url, n]) => calls.get(url) === n);

interface Row {
  readonly case: string;
  readonly exit: number | string;
  readonly attempts: number;
  readonly faults: number;
  readonly retries: number;
  readonly deadlineCut: number;
  readonly unseen: number;
  readonly extraAttempts: number;
  readonly unexplained: number;
  readonly slowAbandoned: string;
  readonly shortestWaitMs: number | string;
  readonly longestAttemptMs: number;
  readonly sameCalls: boolean;
  readonly dataEqual: boolean;
  readonly seconds: number;
  readonly kinds: string;
}

async function runCase(c: (typeof CASES)[number]): Promise<{ row: Row; run: CliResult; unexplained: readonly string[] }> {
  const fx = await fixture(c.spec);
  const run = await fx.cli(['sync', '--log-level', 'debug'], { timeoutMs: 120_000 });
  // A slow answer is logged when the client hangs up on it: wait for every answer to be in the log.
  await fx.sim.settled();
  const requests = fx.sim.requests;
  const injected = requests.filter((r) => r.fault !== undefined);
  const ledger = reconcile(requests, run.stderr);
  // The waits after the Retry-After answers the client never read (its deadline cut them) are its own backoff.
  const waits = retryAfterWaits(requests).slice(ledger.retryAfterUnread);
  const row: Row = {
    case: c.name,
    exit: run.code ?? String(run.signal),
    attempts: requests.length,
    faults: injected.length,
    retries: run.code === 0 || run.code === 3 ? summaryNumber(run.stdout, /\(([\d,]+) retries\)/) : Number.NaN,
    deadlineCut: ledger.unfaultedTimeouts,
    unseen: ledger.unseenAttempts,
    // Every fault, and every answer the deadline cut, costs exactly one more attempt: no fault
    // is given up on, no attempt is wasted.
    extraAttempts: requests.length - clean.requests - injected.length - ledger.unfaultedTimeouts,
    unexplained: ledger.unexplained.length,
    slowAbandoned: `${ledger.slowAbandoned}/${injected.filter((r) => r.fault === 'slow').length}`,
    shortestWaitMs: waits[0] ?? '-',
    longestAttemptMs: Math.max(...attemptDurations(run.stderr)),
    sameCalls: sameCalls(ledger.calls),
    dataEqual: run.code === 0 && JSON.stringify(await checksums(fx.warehousePath, CONTENT_COLUMNS)) === JSON.stringify(clean.sums),
    seconds: Math.round(run.durationMs / 100) / 10,
    kinds: [...new Set(injected.map((r) => r.fault))].sort().join(' '),
  };
  return { row, run, unexplained: ledger.unexplained };
}

// One case is one sync: each guarded on its own, a little longer than the sync itself may run
// (runCase: 120 s), rather than eleven syncs under one budget.
const CASE_BUDGET_MS = budget(150_000, 400_000);
const results = new Map<string, Awaited<ReturnType<typeof runCase>>>();

afterAll(() => {
  const rows = CASES.flatMap((c) => results.get(c.name)?.row ?? []);
  if (rows.length === 0) return;
  reportTable('HTTP fault matrix', rows);
  const sum = (pick: (r: Row) => number): number => rows.reduce((n, r) => n + pick(r), 0);
  const waited = rows.filter((r) => r.shortestWaitMs !== '-').map((r) => Number(r.shortestWaitMs) - RETRY_AFTER_S * 1000);
  reportFigure('http-faults', {
    cases: rows.length,
    cleanAttempts: clean.requests,
    faultsInjected: sum((r) => r.faults),
    extraAttempts: sum((r) => Math.abs(r.extraAttempts)),
    unexplainedAttempts: sum((r) => r.unexplained),
    deadlineCutUnfaulted: sum((r) => r.deadlineCut),
    slowAbandoned: `${sum((r) => Number(r.slowAbandoned.split('/')[0]))}/${sum((r) => Number(r.slowAbandoned.split('/')[1]))}`,
    shortestWaitVsRetryAfterMs: Math.min(...waited),
    longestAttemptMs: Math.max(...rows.map((r) => r.longestAttemptMs)),
    deadlineMs: TIMEOUT_MS,
    dataEqual: `${rows.filter((r) => r.dataEqual).length}/${rows.length}`,
  });
});

// Several cases at a time (vitest's maxConcurrency), the longest (all mixed) first: most of a
// case is waiting (Retry-After, backoff, slow bodies).
describe.concurrent('each transient fault, alone and mixed', () => {
  for (const c of [...CASES].reverse()) {
    it(
      `${c.name}: retried, Retry-After and the deadline honoured, the fault-free data loaded`,
      async ({ expect }) => {
        const result = await runCase(c);
        results.set(c.name, result);
        const { row, run, unexplained } = result;
        expect(row.exit, describeRun(run)).toBe(0);
        expect(row.kinds.split(' ').sort()).toEqual([...c.kinds].sort());
        expect(unexplained).toEqual([]);
        expect(row.extraAttempts).toBe(0);
        expect(row.sameCalls).toBe(true);
        expect(row.dataEqual).toBe(true);
        // The deadline covers the body: every slow answer was given up at the deadline, never read
        // to its end (a drip reset per part would have been).
        const [abandoned, slow] = row.slowAbandoned.split('/').map(Number);
        expect(abandoned).toBe(slow);
        if (row.shortestWaitMs !== '-') expect(row.shortestWaitMs).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
      },
      CASE_BUDGET_MS,
    );
  }
});

it('does not retry a 404 venue or a refused token', async () => {
  const fx = await fixture();
  const ghost = '0badc0de-0000-4000-8000-000000000404';
  const config = fx.writeConfig({ scope: { venues: [...fx.venues, ghost], projects: fx.projects } }, join(fx.dir, 'ghost.config.json'));
  const run = await fx.cli(['sync'], { configPath: config });
  const ghostRequests = fx.sim.requests.filter((r) => r.path.includes(ghost) || r.query.includes(ghost));
  const perUrl = new Map<string, number>();
  for (const r of ghostRequests) perUrl.set(`${r.path}?${r.query}`, (perUrl.get(`${r.path}?${r.query}`) ?? 0) + 1);
  const retried404 = [...perUrl.values()].reduce((n, count) => n + count - 1, 0);

  fx.sim.clearRequests();
  const refused = await fx.cli(['sync'], { env: childEnv({ [TOKEN_ENV]: 'not-the-token' }) });
  const refusedRequests = fx.sim.requests.length;
  reportTable('non-retryable answers', [
    {
      case: '404 venue',
      exit: run.code,
      requests: ghostRequests.length,
      statuses: [...new Set(ghostRequests.map((r) => r.status))].join(','),
      retried: retried404,
    },
    {
      case: '401 token',
      exit: refused.code,
      requests: refusedRequests,
      statuses: [...new Set(fx.sim.requests.map((r) => r.status))].join(','),
      retried: refusedRequests - 1,
    },
  ]);
  reportFigure('non-retryable-4xx', { retried404, retried401: refusedRequests - 1, exit404Venue: run.code, exit401: refused.code });
  expect(ghostRequests.length).toBeGreaterThan(0);
  expect(ghostRequests.every((r) => r.status === 404)).toBe(true);
  expect(retried404).toBe(0);
  // The 404 venue fails, the others go on: a partial run.
  expect(run.code, describeRun(run)).toBe(3);
  expect(run.stdout).toMatch(/partial/);
  expect(refused.code, describeRun(refused)).toBe(1);
  expect(refusedRequests).toBe(1);
}, 60_000);
