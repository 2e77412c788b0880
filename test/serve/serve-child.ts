/**
 * `venue-etl serve` as a child process (the built CLI): a config with a receiver on port 0 (the
 * system picks a free one; the URL is read from serve's log), start and wait for /healthz,
 * read /healthz, wait for a condition.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, type Fixture } from '../e2e/harness.js';
import { waitForOutput } from '../wait.js';

export const AUTH = 'Basic c2VydmUtdGVzdDpyZWNlaXZlci1zZWNyZXQ=';

export interface Serve {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The receiver's URL from serve's `event receiver listening` log line (JSON lines). Port 0 in
 * the config avoids the race of a port found free and then taken by another process before
 * serve binds it.
 */
export function receiverUrl(log: string): string | undefined {
  const line = log.split('\n').find((l) => l.includes('"event receiver listening"'));
  return line === undefined ? undefined : (JSON.parse(line) as { url: string }).url;
}

/** `port` 0: the system picks one (see receiverUrl); a fixed port for a test that restarts serve on the same URL. */
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

/** Starts serve and waits until its receiver listens and /healthz answers. */
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
  // Listening once it says so: then /healthz answers on that URL (the same server).
  await waitForOutput(child, () => out + err, /"event receiver listening"/, 20_000);
  const url = receiverUrl(out + err)!;
  if (port !== 0 && url !== `http://127.0.0.1:${port}`) throw new Error(`serve listens on ${url}, not on port ${port}`);
  const answer = await fetch(`${url}/healthz`);
  if (!answer.ok) throw new Error(`serve answered /healthz with ${answer.status}:\n${out}\n${err}`);
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
