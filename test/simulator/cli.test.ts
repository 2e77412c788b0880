import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { JSONAPI } from './helpers.js';

// The built CLI (dist/ is built before any test file starts: test/global-setup.ts).
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build)`);
});

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  line: (match: RegExp) => Promise<string>;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' } });
  children.push(child);
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = async (match: RegExp): Promise<string> => {
    for (;;) {
      const found = lines.find((l) => match.test(l));
      if (found !== undefined) return found;
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before printing ${match}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return { child, lines, line, exit };
}

it('serves on the URL it prints first and exits 0 on SIGTERM', async () => {
  const sim = run(['simulate', '--port', '0', '--today', '2026-03-10', '--token', 't0ken-e2e', '--log-level', 'warn']);
  await sim.line(/^venues: /);
  const url = sim.lines[0]!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(sim.lines).toContain('token: t0ken-e2e');
  const response = await fetch(`${url}/accounts/filtered-accounts/me/`, { headers: { authorization: 'Bearer t0ken-e2e', accept: JSONAPI } });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { data: { type: string } }).data.type).toBe('accounts');
  sim.child.kill('SIGTERM');
  expect(await sim.exit).toBe(0);
});

it('sends upsert events to a receiver when asked', async () => {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sim = run(['simulate', '--send-events-to', receiverUrl, '--events-auth', 'Basic eDp5', '--events', '5', '--log-level', 'warn']);
    expect(await sim.line(/^events: /)).toBe('events: sent 5, acknowledged 5, retried 0, failed 0');
    expect(bodies).toHaveLength(5);
    sim.child.kill('SIGINT');
    expect(await sim.exit).toBe(0);
  } finally {
    server.close();
  }
});

it('exits 2 on a bad --faults spec, naming the problem', async () => {
  const sim = run(['simulate', '--faults', '429=2']);
  let stderr = '';
  sim.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  expect(await sim.exit).toBe(2);
  expect(stderr).toMatch(/--faults: rate of 429/);
});
