/**
 * B3: peak RSS of `venue-etl backfill` (the real CLI, a child process started as users start it:
 * through bin/venue-etl and its allocator settings) at V and 5 x V venues
 * (1,000 and 5,000 at full size: five times the chains, slices, requests and rows), in one run.
 * Memory should not grow with the scope: the plan is read lazily, the chains in flight are
 * capped, committed rows are dropped, and DuckDB's buffer pool is bounded (docs/scaling.md,
 * "Memory"). Each peak is split into the V8 heap, memory V8 tracks outside it (`external`),
 * and the rest: Node's and DuckDB's native memory (code, DuckDB's buffer pool and allocator).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { startSimulator } from '../src/simulator/index.js';
import { runCli, writeConfig, type CliRun } from './cli-process.js';
import { fmt, type Figure } from './figure.js';

export interface BackfillMemoryOptions {
  /** The smaller scope; the larger one is GROWTH times as many venues. */
  readonly venues: number;
  readonly days: number;
  readonly concurrency: number;
}

/** The larger scope, in times the smaller one (the target: 5,000 venues vs 1,000). */
const GROWTH = 5;
/** Peak RSS allowed at the smaller scope (1,000 venues at full size), and growth to the larger. */
const PEAK_TARGET = 256e6;
const GROWTH_TARGET = 0.15;

interface SizedRun extends CliRun {
  readonly venues: number;
  readonly requests: number;
}

async function backfillAt(venues: number, options: BackfillMemoryOptions): Promise<SizedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b3-'));
  const sim = await startSimulator({ venues, days: options.days + 5 });
  try {
    const config = join(dir, 'venue-etl.config.json');
    writeConfig(config, {
      api: { baseUrl: sim.url, token: sim.token, concurrency: options.concurrency },
      scope: { venues: sim.world.venues.map((v) => v.id), projects: sim.world.projects.map((p) => p.id) },
      warehouse: { path: join(dir, 'warehouse.duckdb') },
      log: { level: 'warn' },
    });
    const to = addDays(todayUtc(), -1);
    const from = addDays(to, 1 - options.days);
    const run = await runCli(['backfill', '--config', config, '--from', from, '--to', to], { probeHeap: true });
    if (run.status !== 0) throw new Error(`backfill of ${venues} venues exited ${run.status}: ${run.stderr.slice(-2000)}`);
    // From the run summary: the simulator's request log keeps only the latest requests.
    const requests = Number(/requests:\s+([\d,]+)/.exec(run.stdout)?.[1]?.replaceAll(',', '') ?? Number.NaN);
    return { ...run, venues, requests };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function backfillMemoryFigure(options: BackfillMemoryOptions): Promise<Figure> {
  const small = await backfillAt(options.venues, options);
  const large = await backfillAt(options.venues * GROWTH, options);
  const growth = large.peakRssBytes / small.peakRssBytes - 1;
  const describe = (r: SizedRun) =>
    `${fmt.count(r.venues)} venues: ${fmt.mb(r.peakRssBytes)} peak RSS = V8 heap ${fmt.mb(r.peakHeapTotalBytes)} ` +
    `(${fmt.mb(r.peakHeapUsedBytes)} used, garbage included) + external ${fmt.mb(r.peakExternalBytes)} + ` +
    `native ${fmt.mb(r.peakRssBytes - r.peakHeapTotalBytes - r.peakExternalBytes)} (Node, DuckDB); ` +
    `${fmt.count(r.requests)} requests in ${fmt.seconds(r.wallMs)}`;
  return {
    id: 'B3',
    what: `peak RSS, CLI backfill of ${fmt.count(options.venues)} and ${fmt.count(options.venues * GROWTH)} venues x ${options.days} d`,
    measured: `${fmt.mb(small.peakRssBytes)} -> ${fmt.mb(large.peakRssBytes)}`,
    limit: 'flat',
    ratio: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%`,
    target: `<= ${fmt.mb(PEAK_TARGET)} at ${fmt.count(options.venues)}, growth <= ${GROWTH_TARGET * 100}%`,
    met: small.peakRssBytes <= PEAK_TARGET && growth <= GROWTH_TARGET,
    notes: [
      `${describe(small)}; ${describe(large)} (RSS from ${small.rssSource}, heap peaks sampled every 20 ms; simulator in the benchmark process, no latency).`,
    ],
  };
}
