/**
 * B10: goodput under a rate limit. The simulator (a child process) allows R requests/s per token
 * (`simulate --rate-limit R`, token bucket, burst R/5) and answers 429 + Retry-After beyond it,
 * with a fixed latency; a backfill runs here, as the CLI would run it, with the default
 * `api` settings (no `concurrency`, no `maxRequestsPerSecond`). Goodput is the requests the
 * simulator accepted (2xx) per second of the whole run, learning included, divided by R; the
 * 429 share is refused ÷ all requests the simulator saw. Each point runs twice into the same
 * warehouse: the first run finds the limit; the next one (an earlier range of the same size, as a
 * nightly job's next run) starts from the limit the first one recorded. The target holds for the
 * next run and for runs the length of a nightly sync of 1,000 venues (23,400 requests, virtual
 * time); the 30-s first run, which pays the learning in full, is reported but no target.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, daysBetween, todayUtc } from '../src/calendar/index.js';
import { requireApi, resolveConfig, type ApiReadyConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { planBackfillRun, runBackfill } from '../src/runner/backfill-job.js';
import { fmt, type Figure } from './figure.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';
import { runAgainstRateLimit, type RateLimitedRun } from './virtual-rate-limit.js';

export interface RateLimitGoodputOptions {
  /** Each point: R requests/s allowed, the latency of every answer. */
  readonly points: readonly { readonly rate: number; readonly latencyMs: number }[];
  /** Planned length of each run at R: the backfill is sized to R x seconds requests. */
  readonly seconds: number;
  readonly venues: number;
}

export interface RateLimitRun {
  readonly wallMs: number;
  readonly accepted: number;
  readonly refused: number;
  readonly total: number;
  readonly status: string;
}

export interface RateLimitPoint {
  readonly rate: number;
  readonly latencyMs: number;
  /** Against an API the warehouse has not met: the limit is learned. */
  readonly first: RateLimitRun;
  /** The next run into the same warehouse: it starts from the limit the first one found. */
  readonly next: RateLimitRun;
}

const MAX_DAYS = 365;
/** The virtual replay is repeated over a run this many times longer. */
const LONGER = 10;
/** Requests of the random-429 replay: 10.6 s with none refused (200 ms, 64 in flight). */
const RANDOM_REQUESTS = 3_000;
const RANDOM_SEEDS = [1, 2, 3, 4, 5];
/** Requests of a nightly sync of 1,000 venues (the lookback days of the analytics streams, roles, accounts). */
const NIGHTLY_REQUESTS = 23_400;

export async function measureRateLimitPoint(rate: number, latencyMs: number, options: RateLimitGoodputOptions): Promise<RateLimitPoint> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b10-'));
  const sim = await startSimulatorProcess({ venues: options.venues, days: MAX_DAYS + 5, latencyMs, rateLimit: rate });
  try {
    const config = requireApi(
      resolveConfig({
        api: { baseUrl: sim.url, token: sim.token },
        scope: { venues: sim.venues, projects: sim.projects },
        warehouse: { path: join(dir, 'warehouse.duckdb') },
        log: { level: 'warn' },
      }),
    );
    const range = sizedRange(config, rate * options.seconds);
    const days = daysBetween(range.from, range.to) + 1;
    const earlier = { from: addDays(range.from, -days), to: addDays(range.from, -1) };
    const first = await measuredRun(config, range, sim);
    const next = await measuredRun(config, earlier, sim);
    return { rate, latencyMs, first, next };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measuredRun(config: ApiReadyConfig, range: { from: string; to: string }, sim: SimulatorProcess): Promise<RateLimitRun> {
  // The simulator's bucket is full when a run starts sending: it refills during the run's planning.
  await sim.clearRequests();
  const started = performance.now();
  const backfill = await runBackfill(config, createLogger({ level: 'warn' }), range);
  const wallMs = performance.now() - started;
  const statuses = await sim.statuses();
  const accepted = statuses.filter((s) => s >= 200 && s < 300).length;
  const refused = statuses.filter((s) => s === 429).length;
  return { wallMs, accepted, refused, total: statuses.length, status: backfill.alreadyFinished ? 'already finished' : backfill.status };
}

/** The shortest range ending yesterday whose plan holds at least `requests` requests. */
function sizedRange(config: ApiReadyConfig, requests: number): { from: string; to: string } {
  const to = addDays(todayUtc(), -1);
  for (let days = 1; ; days++) {
    const from = addDays(to, 1 - days);
    if (days >= MAX_DAYS || planBackfillRun(config, { from, to }).requests >= requests) return { from, to };
  }
}

/**
 * 429s drawn at random, no limit in reach: each is taken for a limit (under 15 %), and the pace
 * they set is what the run costs. It depends much on the draw (at 10 %, 42 s to 189 s over these
 * five), so five seeds per share, the same every run.
 */
async function randomRefusalPoints(): Promise<string> {
  const points: string[] = [];
  for (const share of [0, 0.01, 0.02, 0.05, 0.1, 0.3]) {
    const seconds: number[] = [];
    for (const randomSeed of RANDOM_SEEDS) {
      const run = await runAgainstRateLimit({ rate: 1_000_000, latencyMs: 200, requests: RANDOM_REQUESTS, concurrency: 64, randomRefusals: share, randomSeed });
      seconds.push(run.elapsedMs);
    }
    points.push(`${(share * 100).toFixed(0)} %: ${(Math.min(...seconds) / 1000).toFixed(1)}-${(Math.max(...seconds) / 1000).toFixed(1)} s`);
  }
  return points.join(', ');
}

/**
 * The client's throttle alone against the same bucket in virtual time (no machine, no load, no
 * jitter): what the learning costs by itself, to tell it from what the machine adds.
 */
async function virtualPoint(rate: number, latencyMs: number, seconds: number): Promise<string> {
  const first = await runAgainstRateLimit({ rate, latencyMs, requests: rate * seconds });
  const found = first.throttle.limitFound;
  const next = found === undefined ? undefined : await runAgainstRateLimit({ rate, latencyMs, requests: rate * seconds, rememberedLimit: found });
  const figures = (run: RateLimitedRun) =>
    `${(run.accepted / (run.elapsedMs / 1000) / rate).toFixed(2)} R, ${((run.refused / (run.accepted + run.refused)) * 100).toFixed(1)} %`;
  return `R ${rate}/${latencyMs} ms ${figures(first)} (next run ${next === undefined ? 'no limit found' : figures(next)})`;
}

export async function rateLimitGoodputFigure(options: RateLimitGoodputOptions): Promise<Figure> {
  const points: RateLimitPoint[] = [];
  for (const { rate, latencyMs } of options.points) points.push(await measureRateLimitPoint(rate, latencyMs, options));
  const virtual: string[] = [];
  const longer: string[] = [];
  for (const { rate, latencyMs } of options.points) {
    virtual.push(await virtualPoint(rate, latencyMs, options.seconds));
    // What the learning costs over a longer run: the first overshoot and the search for the
    // level are paid once, the probes less and less often.
    longer.push(await virtualPoint(rate, latencyMs, LONGER * options.seconds));
  }
  const goodput = (p: RateLimitPoint, run: RateLimitRun) => (run.accepted * 1000) / run.wallMs / p.rate;
  const share = (run: RateLimitRun) => (run.total === 0 ? 0 : run.refused / run.total);
  const runs = points.flatMap((p) => [p.first, p.next]);
  const lowest = (which: 'first' | 'next') => Math.min(...points.map((p) => goodput(p, p[which])));
  const highestShare = (which: 'first' | 'next') => Math.max(...points.map((p) => share(p[which])));
  const nightly: RateLimitedRun[] = [];
  for (const { rate, latencyMs } of options.points) nightly.push(await runAgainstRateLimit({ rate, latencyMs, requests: NIGHTLY_REQUESTS, connectMs: 10 }));
  const nightlyGoodput = nightly.map((run, i) => run.accepted / (run.elapsedMs / 1000) / options.points[i]!.rate);
  const nightlyShare = nightly.map((run) => run.refused / (run.accepted + run.refused));
  const worst = Math.min(lowest('next'), ...nightlyGoodput);
  const summary = (which: 'first' | 'next') => `goodput >= ${lowest(which).toFixed(2)} R, 429s <= ${(highestShare(which) * 100).toFixed(1)} %`;
  const line = (p: RateLimitPoint, run: RateLimitRun) =>
    `${fmt.count(run.accepted)} accepted in ${fmt.seconds(run.wallMs)} = ${goodput(p, run).toFixed(2)} R, ` +
    `${fmt.count(run.refused)} of ${fmt.count(run.total)} refused (${(share(run) * 100).toFixed(1)} %), ${run.status}`;
  return {
    id: 'B10',
    what: `backfill under a rate limit R, default api settings, ${points.map((p) => `R ${p.rate}/${p.latencyMs} ms`).join(', ')}; a first run and the next one`,
    measured: `first run: ${summary('first')}; next run: ${summary('next')}; nightly sync (virtual): goodput >= ${Math.min(...nightlyGoodput).toFixed(2)} R, 429s <= ${(Math.max(...nightlyShare) * 100).toFixed(1)} %`,
    limit: 'R (the limit itself)',
    ratio: fmt.ratio(worst),
    target: '>= 0.95 R, <= 2 % 429 (next run; a nightly sync in virtual time)',
    met: runs.every((run) => run.status === 'succeeded') && worst >= 0.95 && Math.max(highestShare('next'), ...nightlyShare) <= 0.02,
    notes: [
      ...points.map((p) => `R ${p.rate}/s, ${p.latencyMs} ms: first run ${line(p, p.first)}; next run ${line(p, p.next)}.`),
      `Each run sized to about R x ${options.seconds} s of requests (${options.venues} venues); goodput counts the whole run, learning the limit included. ` +
        'The next run backfills the same number of earlier days into the same warehouse and starts from the limit the first one recorded (docs/rate-limits.md).',
      `The throttle alone in virtual time against the same bucket (bench/virtual-rate-limit.ts, R x ${options.seconds} requests, no machine): ${virtual.join('; ')}.`,
      `The same over R x ${LONGER * options.seconds} requests: ${longer.join('; ')}.`,
      `The throttle alone over a nightly sync of 1,000 venues (${fmt.count(NIGHTLY_REQUESTS)} requests, new connections 10 ms late, virtual time): ${options.points
        .map((p, i) => `R ${p.rate}/${p.latencyMs} ms ${nightlyGoodput[i]!.toFixed(3)} R, ${(nightlyShare[i]! * 100).toFixed(2)} %`)
        .join('; ')}.`,
      `No limit in reach but 429s at a share whatever the rate (virtual time, ${fmt.count(RANDOM_REQUESTS)} requests, 200 ms, 64 in flight, fastest-slowest of ${RANDOM_SEEDS.length} draws; docs/rate-limits.md): ${await randomRefusalPoints()}.`,
    ],
  };
}
