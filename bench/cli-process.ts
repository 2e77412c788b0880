/**
 * Runs the real CLI in a child process and reports its peak resident set size: from
 * `/usr/bin/time -v` when it is installed, else by polling VmHWM in /proc/<pid>/status (the
 * high-water mark, so polling only misses a peak in its last interval).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CLI } from './simulator-process.js';

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Peak RSS in bytes (NaN when neither source was available). */
  readonly peakRssBytes: number;
  readonly rssSource: '/usr/bin/time' | 'VmHWM' | 'none';
}

const TIME = '/usr/bin/time';

export function writeConfig(path: string, config: unknown): void {
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
}

export async function runCli(args: readonly string[], options: { readonly env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-v', process.execPath, CLI, ...args] : [CLI, ...args];
  const started = performance.now();
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let polledKb = Number.NaN;
  const poll = useTime
    ? undefined
    : setInterval(() => {
        try {
          const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (match) polledKb = Number(match[1]);
        } catch {
          // The process is gone: the last reading stands.
        }
      }, 20);
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  if (poll) clearInterval(poll);
  const wallMs = performance.now() - started;
  if (useTime) {
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    // GNU time reports the child's exit status as its own.
    return { status, stdout, stderr, wallMs, peakRssBytes: match ? Number(match[1]) * 1024 : Number.NaN, rssSource: match ? TIME : 'none' };
  }
  return { status, stdout, stderr, wallMs, peakRssBytes: polledKb * 1024, rssSource: Number.isNaN(polledKb) ? 'none' : 'VmHWM' };
}
