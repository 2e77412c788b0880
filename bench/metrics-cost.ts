/**
 * B13: what operations cost a nightly sync of V venues: the same incremental sync, in this
 * process, against the simulator in a child process, without any observer and with the ones a
 * batch run gets from its config — the run-state file (replaced every 2 s), the metrics
 * pushed to a Pushgateway (a local stub that takes the POST) and the run's figures in a
 * prom-client registry. Wall time and CPU (every thread of this process, DuckDB's included) of
 * the runs, alternated and repeated; the fastest of each kind counts. The client's per-request
 * counters are the same in both: metrics read them once, at the end of the run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { requireApi, resolveConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { observersFor } from '../src/ops/index.js';
import { runSync } from '../src/runner/sync-job.js';
import { fmt, type Figure } from './figure.js';
import { startSimulatorProcess } from './simulator-process.js';

export interface MetricsCostOptions {
  readonly venues: number;
  readonly days: number;
  /** Measured runs of each kind (after one first sync that loads the history). */
  readonly attempts: number;
}

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly requests: number;
}

export async function metricsCostFigure(options: MetricsCostOptions): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b13-'));
  const sim = await startSimulatorProcess({ venues: options.venues, days: options.days + 5 });
  let pushes = 0;
  const gateway = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      pushes += 1;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  try {
    const config = requireApi(
      resolveConfig({
        api: { baseUrl: sim.url, token: sim.token, concurrency: 16 },
        scope: { venues: [...sim.venues], projects: [...sim.projects] },
        sync: { startDate: addDays(todayUtc(), -options.days) },
        warehouse: { path: join(dir, 'warehouse.duckdb') },
        metrics: { pushgateway: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}` },
        log: { level: 'warn' },
      }),
    );
    const logger = createLogger({ level: 'warn' });
    const run = async (observed: boolean): Promise<Sample> => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await runSync(config, logger, { observers: observed ? observersFor(config, logger) : [] });
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (result.status !== 'succeeded') throw new Error(`a measured sync was ${result.status}`);
      return { wallMs, cpuMs: (used.user + used.system) / 1000, requests: result.requests };
    };
    await run(false);
    const without: Sample[] = [];
    const withMetrics: Sample[] = [];
    for (let i = 0; i < options.attempts; i++) {
      without.push(await run(false));
      withMetrics.push(await run(true));
    }
    const best = (samples: Sample[], pick: (s: Sample) => number): number => Math.min(...samples.map(pick));
    const wall = [best(without, (s) => s.wallMs), best(withMetrics, (s) => s.wallMs)] as const;
    const cpu = [best(without, (s) => s.cpuMs), best(withMetrics, (s) => s.cpuMs)] as const;
    const wallRatio = wall[1] / wall[0];
    const cpuRatio = cpu[1] / cpu[0];
    const list = (samples: Sample[], pick: (s: Sample) => number, format: (n: number) => string): string => samples.map((s) => format(pick(s))).join(', ');
    return {
      id: 'B13',
      what: `nightly sync of ${fmt.count(options.venues)} venues with metrics, run state and push vs none`,
      measured: `wall ${fmt.seconds(wall[1])}, CPU ${fmt.seconds(cpu[1])}`,
      limit: `without: wall ${fmt.seconds(wall[0])}, CPU ${fmt.seconds(cpu[0])}`,
      ratio: `wall ${fmt.ratio(wallRatio)}, CPU ${fmt.ratio(cpuRatio)}`,
      target: '<= 1.02x wall and CPU',
      met: wallRatio <= 1.02 && cpuRatio <= 1.02,
      notes: [
        `${options.attempts} runs of each kind, alternated after a first sync of ${options.days} days; the fastest of each counts. ` +
          `Without: wall ${list(without, (s) => s.wallMs, fmt.seconds)}, CPU ${list(without, (s) => s.cpuMs, fmt.seconds)}; ` +
          `with: wall ${list(withMetrics, (s) => s.wallMs, fmt.seconds)}, CPU ${list(withMetrics, (s) => s.cpuMs, fmt.seconds)}; ` +
          `${fmt.count(withMetrics[0]?.requests ?? 0)} requests a run, ${pushes} pushes taken by the stub Pushgateway.`,
      ],
    };
  } finally {
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
