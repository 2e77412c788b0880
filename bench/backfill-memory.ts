/**
 * B3: peak RSS of `venue-etl backfill` (the real CLI, a child process) at size S and 10 x S
 * (ten times the venues, so ten times the chains, slices, requests and rows). Memory should
 * not grow with the size of a backfill: rows are committed in bounded groups as they arrive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { startSimulator } from '../src/simulator/index.js';
import { runCli, writeConfig, type CliRun } from './cli-process.js';
import { fmt, type Figure } from './figure.js';

export interface BackfillMemoryOptions {
  readonly venues: number;
  readonly days: number;
  readonly concurrency: number;
}

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
    sim.clearRequests();
    const run = await runCli(['backfill', '--config', config, '--from', from, '--to', to], { probeHeap: true });
    if (run.status !== 0) throw new Error(`backfill of ${venues} venues exited ${run.status}: ${run.stderr.slice(-2000)}`);
    return { ...run, venues, requests: sim.requests.length };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function backfillMemoryFigure(options: BackfillMemoryOptions): Promise<Figure> {
  const small = await backfillAt(options.venues, options);
  const large = await backfillAt(options.venues * 10, options);
  const growth = large.peakRssBytes / small.peakRssBytes - 1;
  const peak = Math.max(small.peakRssBytes, large.peakRssBytes);
  const describe = (r: SizedRun) =>
    `${r.venues} venues: ${fmt.mb(r.peakRssBytes)} peak RSS, of which V8 heap ${fmt.mb(r.peakHeapTotalBytes)} ` +
    `(${fmt.mb(r.peakHeapUsedBytes)} used, garbage included), ${fmt.count(r.requests)} requests in ${fmt.seconds(r.wallMs)}`;
  return {
    id: 'B3',
    what: `peak RSS, CLI backfill of ${options.venues} and ${options.venues * 10} venues x ${options.days} d`,
    measured: `${fmt.mb(small.peakRssBytes)} -> ${fmt.mb(large.peakRssBytes)}`,
    limit: 'flat',
    ratio: `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%`,
    target: '<= 300 MB, growth <= 15%',
    met: peak <= 300e6 && growth <= 0.15,
    notes: [`${describe(small)}; ${describe(large)} (RSS from ${small.rssSource}; simulator in the benchmark process, no latency).`],
  };
}
