/**
 * Real Prometheus and Pushgateway (Debian's packages) for tests: each on a free loopback port
 * with its storage in a temp dir, started and stopped by the test. A missing binary fails the
 * test with the package to install — never a silent skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PUSHGATEWAY = '/usr/bin/prometheus-pushgateway';
export const PROMTOOL = '/usr/bin/promtool';

export function requireBinary(path: string, pkg: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing: install the Debian package ${pkg} (apt-get install ${pkg}); .ci/run does it`);
}

export interface Running {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

async function startBinary(binary: string, args: (port: number, dir: string) => string[], ready: string): Promise<Running> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-prom-'));
  const child: ChildProcess = spawn(binary, args(port, dir), { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${binary} exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}${ready}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${binary} was not ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prometheus scraping `targets` (host:port) at `metricsPath` every second, with `rules` files loaded. */
export function startPrometheus(jobs: readonly { job: string; target: string; honorLabels?: boolean }[], rules: readonly string[] = []): Promise<Running> {
  requireBinary(PROMETHEUS, 'prometheus');
  return startBinary(
    PROMETHEUS,
    (port, dir) => {
      const config = join(dir, 'prometheus.yml');
      const scrape = jobs
        .map((j) => `  - job_name: ${j.job}\n    honor_labels: ${j.honorLabels ?? false}\n    static_configs:\n      - targets: ['${j.target}']`)
        .join('\n');
      writeFileSync(
        config,
        `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: [${rules.map((r) => `'${r}'`).join(', ')}]\nscrape_configs:\n${scrape}\n`,
      );
      return [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`];
    },
    '/-/ready',
  );
}

export function startPushgateway(): Promise<Running> {
  requireBinary(PUSHGATEWAY, 'prometheus-pushgateway');
  return startBinary(PUSHGATEWAY, (port) => [`--web.listen-address=127.0.0.1:${port}`], '/-/ready');
}

export interface Sample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/** An instant query of Prometheus's HTTP API. */
export async function query(prometheus: Running, expression: string): Promise<Sample[]> {
  const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as { status: string; data: { result: Sample[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${expression} failed: ${body.error}`);
  return body.data.result;
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
