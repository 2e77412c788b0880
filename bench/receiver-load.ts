/**
 * Load micro-benchmark of the upsert event receiver: concurrent senders POST distinct events
 * over keep-alive loopback connections for a few seconds while the receiver journals them
 * (fsync per group commit) and merges them into a DuckDB file in the background.
 *
 *   npx tsc -p . && node dist/bench/receiver-load.js [--seconds 5] [--senders 16] [--merge-interval-ms 2000] [--quick]
 *
 * Prints events/s, the time from sending a request to its 2xx (p50 / p99 / max), and the CPU
 * the receiver's process used per event (a figure that depends less on what else the machine
 * runs). The senders run in a child process, so that neither their event loop nor their CPU
 * is counted as the receiver's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../src/log/index.js';
import { startReceiver } from '../src/receiver/index.js';

const AUTHORIZATION = 'Basic YmVuY2g6YmVuY2gtcGFzc3dvcmQ=';

interface SenderConfig {
  readonly url: string;
  readonly senders: number;
  readonly seconds: number;
}

interface SenderReport {
  readonly latenciesMs: number[];
  readonly failures: number;
  readonly elapsedMs: number;
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function body(n: number): string {
  const user = `0d6f7d0e-6a8f-4c43-9e1a-${n.toString(16).padStart(12, '0')}`;
  const venue = `7a1e2b3c-1111-4aaa-8bbb-${(n % 50).toString(16).padStart(12, '0')}`;
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace('Z', '+00:00');
  return JSON.stringify({
    data: {
      user: {
        id: user,
        email: `guest${n}@example.com`,
        'email-confirmed': true,
        'first-name': 'Ana',
        'last-name': 'Kowalska',
        phone: '+48123456789',
        'phone-confirmed': false,
        language: 'pl',
        'birth-date': '1990-04-05',
        gender: 'female',
        'is-subscribed': n % 2 === 0,
      },
      venue: { id: venue, name: `Venue ${n % 50}`, address: 'Rynek 1', city: 'Krakow', country: 'PL', 'created-at': '2024-03-01T09:30:00.123456+00:00' },
      'user-venue-history': { 'visits-count': 1 + (n % 9), 'first-visit-on': at, 'last-visit-on': at },
      'user-venue-agreements': { 'accepted-date': at, texts: ['I accept the terms of use of the guest Wi-Fi.', 'I accept the privacy policy.'] },
    },
  });
}

/** Child process: `senders` loops, each one request at a time, until the time is up. */
async function runSenders(config: SenderConfig): Promise<SenderReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: config.senders });
  const target = new URL('/users/', config.url);
  const latenciesMs: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + config.seconds * 1000;
  const send = (text: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: AUTHORIZATION, 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  await Promise.all(
    Array.from({ length: config.senders }, async () => {
      while (performance.now() < deadline) {
        const text = body(next++);
        const t0 = performance.now();
        const status = await send(text).catch(() => 0);
        if (status >= 200 && status < 300) latenciesMs.push(performance.now() - t0);
        else failures += 1;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { latenciesMs, failures, elapsedMs };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const seconds = option('seconds', quick ? 2 : 5);
  const senders = option('senders', 16);
  const mergeIntervalMs = option('merge-interval-ms', 2000); // the receiver's default
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-receiver-bench-'));
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    authorization: AUTHORIZATION,
    maxBodyBytes: 1_048_576,
    journalDir: join(dir, 'journal'),
    warehousePath: join(dir, 'warehouse.duckdb'),
    logger: createLogger({ level: 'warn' }),
    mergeIntervalMs,
  });
  try {
    const config: SenderConfig = { url: receiver.url, senders, seconds };
    const cpuBefore = process.cpuUsage();
    const report = await runChild(config);
    const cpu = process.cpuUsage(cpuBefore);
    const sorted = [...report.latenciesMs].sort((a, b) => a - b);
    const { journal } = receiver.stats;
    const mergedDuringRun = receiver.stats.merged.inserted;
    const t0 = performance.now();
    const final = await receiver.mergeNow();
    const backlogMs = performance.now() - t0;
    const mergedAfter = receiver.stats.merged.inserted - mergedDuringRun;
    const fmt = (n: number): string => n.toFixed(1);
    console.log(`receiver load: ${senders} senders, ${fmt(report.elapsedMs / 1000)} s, loopback, fsync per group commit`);
    console.log(`  acknowledged     ${sorted.length} events (${report.failures} not 2xx)`);
    console.log(`  throughput       ${Math.round((sorted.length * 1000) / report.elapsedMs)} events/s`);
    console.log(
      `  time to 2xx      p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(sorted[sorted.length - 1] ?? Number.NaN)} ms`,
    );
    console.log(
      `  receiver CPU     ${Math.round((cpu.user + cpu.system) / Math.max(1, sorted.length))} µs per event (intake and merges while sending; ${fmt((cpu.user + cpu.system) / 1e4 / (report.elapsedMs / 1000))}% of one core)`,
    );
    console.log(
      `  group commit     ${journal.records} records in ${journal.flushes} fsyncs (${fmt(journal.records / Math.max(1, journal.flushes))} per fsync)`,
    );
    console.log(
      `  merge            ${mergedDuringRun} merged while sending (every ${mergeIntervalMs} ms); the other ${mergedAfter} within ${Math.round(backlogMs)} ms after (${final.status})`,
    );
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(config: SenderConfig): Promise<SenderReport> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--sender', JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as SenderReport) : reject(new Error(`sender process exited with ${code}`))));
  });
}

const senderIndex = process.argv.indexOf('--sender');
if (senderIndex >= 0) {
  process.stdout.write(JSON.stringify(await runSenders(JSON.parse(process.argv[senderIndex + 1]) as SenderConfig)));
} else {
  await main();
}
