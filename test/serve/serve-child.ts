/**
 * `venue-etl serve` as a child process (the built CLI): a config with a receiver on a free
 * port, start and wait for /healthz, read /healthz, wait for a condition.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, type Fixture } from '../e2e/harness.js';

export const AUTH = 'Basic c2VydmUtdGVzdDpyZWNlaXZlci1zZWNyZXQ=';

export interface Serve {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function writeServeConfig(fixture: Fixture, port: number, jobs: Record<string, string>): string {
  const path = join(fixture.dir, 'serve.config.json');
  fixture.writeConfig({}, path);
  const config = JSON.parse(readFileSync(path, 'utf8'));
  config.schedule = { timezone: 'UTC', jobs };
  config.receiver = { enabled: true, host: '127.0.0.1', port, authorization: '${VENUE_RECEIVER_AUTHORIZATION}', journalDir: join(fixture.dir, 'journal') };
  config.log = { level: 'info' };
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/** Starts serve and waits until /healthz answers. */
export async function startServe(fixture: Fixture, configPath: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Serve> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath], {
    cwd: fixture.dir,
    env: { ...fixture.env, ...childEnv({ VENUE_API_TOKEN: fixture.sim.token, VENUE_RECEIVER_AUTHORIZATION: AUTH }), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}):\n${out}\n${err}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`serve did not answer /healthz:\n${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

export interface Health {
  jobs: { name: string; runs: number; running: boolean; skippedOverlaps: number; lastRun: { status: string } | null }[];
  receiver: { accepted: number; merged: { inserted: number; duplicates: number } };
}

export async function health(serve: Serve): Promise<Health> {
  return (await (await fetch(`${serve.url}/healthz`)).json()) as Health;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
