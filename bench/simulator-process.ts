/**
 * The simulator in a child process (`venue-etl simulate`), so that serving requests does not
 * share the event loop of the code being measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

export interface SimulatorProcess {
  readonly url: string;
  readonly token: string;
  readonly venues: readonly string[];
  readonly projects: readonly string[];
  readonly pid: number;
  /** API requests the simulator answered (its request log; control requests excluded). */
  requestCount(): Promise<number>;
  /** The status of every API request in the simulator's request log. */
  statuses(): Promise<number[]>;
  clearRequests(): Promise<void>;
  stop(): Promise<void>;
}

export interface SimulatorProcessOptions {
  readonly venues: number;
  readonly days: number;
  readonly latencyMs?: number;
  /** Requests per second allowed per token (`--rate-limit`). */
  readonly rateLimit?: number;
  readonly seed?: number;
  readonly today?: string;
}

export async function startSimulatorProcess(options: SimulatorProcessOptions): Promise<SimulatorProcess> {
  const args = [CLI, 'simulate', '--venues', String(options.venues), '--days', String(options.days), '--log-level', 'warn'];
  if (options.latencyMs !== undefined) args.push('--latency-ms', String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.today !== undefined) args.push('--today', options.today);
  // stderr is kept, not shown: the simulator's own warnings would interleave with the table.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const header: string[] = [];
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the simulator exited early (status ${code}): ${stderr.trim()}`)));
    lines.on('line', (line) => {
      header.push(line);
      if (line.startsWith('venues:')) resolve();
    });
  });
  child.removeAllListeners('exit');
  const field = (name: string): string => header.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
  const url = header[0]!;
  const token = field('token');
  const control = async (method: string): Promise<Response> => fetch(`${url}/__sim/requests`, { method, headers: { authorization: `Bearer ${token}` } });
  return {
    url,
    token,
    venues: field('venues').split(',').filter(Boolean),
    projects: field('projects').split(',').filter(Boolean),
    pid: child.pid!,
    async requestCount() {
      const body = (await (await control('GET')).json()) as unknown;
      const list = Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? []);
      return list.length;
    },
    async statuses() {
      const body = (await (await control('GET')).json()) as unknown;
      const list: unknown[] = Array.isArray(body) ? body : ((body as { requests?: unknown[] }).requests ?? []);
      return list.map((entry) => (entry as { status?: number }).status ?? 0);
    },
    async clearRequests() {
      await control('DELETE');
    },
    stop: () => stopChild(child),
  };
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; NaN when unreadable. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field (3rd) here.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

const CLOCK_TICKS = 100;
