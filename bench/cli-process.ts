/**
 * Runs the real CLI in a child process, the way users run it (`bin/venue-etl`, the launcher
 * that sets the allocator's variables and then `exec`s Node: the measured process is the CLI's
 * own), and reports its peak resident set size: from
 * `/usr/bin/time -v` when it is installed, else by polling VmHWM in /proc/<pid>/status (the
 * high-water mark, so polling only misses a peak in its last interval).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';

const PROBE = fileURLToPath(new URL('./memory-probe.js', import.meta.url));
/** The package's bin, from dist/bench/ (the CLI it starts is dist/src/cli.js, as CLI). */
const LAUNCHER = fileURLToPath(new URL('../../bin/venue-etl', import.meta.url));
const PROBE_TAG = 'venue-etl-bench-memory';

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Peak RSS in bytes (NaN when neither source was available). */
  readonly peakRssBytes: number;
  /** Peak V8 heap (allocated, and used) sampled inside the child; NaN without the probe. */
  readonly peakHeapTotalBytes: number;
  readonly peakHeapUsedBytes: number;
  /** Peak of memory V8 tracks outside its heap (Buffers, native objects held by JavaScript); NaN without the probe. */
  readonly peakExternalBytes: number;
  readonly rssSource: '/usr/bin/time' | 'VmHWM' | 'none';
}

const TIME = '/usr/bin/time';

export function writeConfig(path: string, config: unknown): void {
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
}

export async function runCli(args: readonly string[], options: { readonly env?: NodeJS.ProcessEnv; readonly probeHeap?: boolean } = {}): Promise<CliRun> {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : LAUNCHER;
  const argv = useTime ? ['-v', LAUNCHER, ...args] : [...args];
  const started = performance.now();
  const probe = options.probeHeap ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim() } : {};
  // The launcher runs the `node` it finds on PATH: this one first.
  const path = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env, ...probe, ...path } });
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
  const heap = heapPeaks(stderr);
  if (useTime) {
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    // GNU time reports the child's exit status as its own.
    return { status, stdout, stderr, wallMs, ...heap, peakRssBytes: match ? Number(match[1]) * 1024 : Number.NaN, rssSource: match ? TIME : 'none' };
  }
  return { status, stdout, stderr, wallMs, ...heap, peakRssBytes: polledKb * 1024, rssSource: Number.isNaN(polledKb) ? 'none' : 'VmHWM' };
}

function heapPeaks(stderr: string): { peakHeapTotalBytes: number; peakHeapUsedBytes: number; peakExternalBytes: number } {
  const line = stderr.split('\n').find((l) => l.startsWith(PROBE_TAG));
  if (!line) return { peakHeapTotalBytes: Number.NaN, peakHeapUsedBytes: Number.NaN, peakExternalBytes: Number.NaN };
  const peak = JSON.parse(line.slice(PROBE_TAG.length + 1)) as { heapTotal: number; heapUsed: number; external: number };
  return { peakHeapTotalBytes: peak.heapTotal, peakHeapUsedBytes: peak.heapUsed, peakExternalBytes: peak.external };
}
