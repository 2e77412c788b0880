/**
 * B6: the event receiver under 16 concurrent senders on loopback. The load itself is the
 * receiver engineer's `bench/receiver-load.ts` (senders in a worker thread, fsync per group
 * commit, merge into DuckDB in the background), run here as a child process; its summary lines
 * are read back.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmt, notMeasured, type Figure } from './figure.js';

const SCRIPT = fileURLToPath(new URL('./receiver-load.js', import.meta.url));
const WHAT = 'receiver: durable events acknowledged, 16 senders';
const TARGET = '>= 2,000 events/s, p99 < 50 ms';

export async function receiverThroughputFigure(options: { readonly seconds: number; readonly senders: number }): Promise<Figure> {
  if (!existsSync(SCRIPT)) return notMeasured('B6', WHAT, TARGET, 'bench/receiver-load.ts is not built (dist/bench/receiver-load.js missing).');
  const args = [SCRIPT, '--seconds', String(options.seconds), '--senders', String(options.senders)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const number = (pattern: RegExp): number => Number(pattern.exec(out)?.[1] ?? Number.NaN);
  const perSecond = number(/throughput\s+(\d+(?:\.\d+)?) events\/s/);
  const p50 = number(/p50 (\d+(?:\.\d+)?) ms/);
  const p99 = number(/p99 (\d+(?:\.\d+)?) ms/);
  const failed = number(/\((\d+) not 2xx\)/);
  if (status !== 0 || Number.isNaN(perSecond) || Number.isNaN(p99)) {
    return notMeasured('B6', WHAT, TARGET, `receiver-load exited ${status}; output not understood: ${(out + err).trim().slice(-400)}`);
  }
  return {
    id: 'B6',
    what: WHAT,
    measured: `${fmt.count(perSecond)}/s, p50 ${fmt.ms(p50)}, p99 ${fmt.ms(p99)}`,
    limit: '-',
    ratio: '-',
    target: TARGET,
    met: perSecond >= 2000 && p99 < 50 && failed === 0,
    notes: [
      `${options.senders} senders for ${options.seconds} s (bench/receiver-load.ts): ${out
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.trim().replace(/\s+/g, ' '))
        .join('; ')}.`,
    ],
  };
}
