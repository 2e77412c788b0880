import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { builtModule } from '../dist.js';
import { AUTH, capturedLogger, eventBody, post, readTables, repoRoot, tempDir, USER_1, VENUE_1, receiverOptions } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
const children: ChildProcess[] = [];

beforeEach(() => {
  temp = tempDir();
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  temp.cleanup();
});

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const journalDir = (): string => join(temp.dir, 'journal');
const warehousePath = (): string => join(temp.dir, 'warehouse.duckdb');

/** Runs `script` (an ES module body) in a child process; resolves with it once it printed `ready <text>`. */
function runChild(script: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; ready: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (data: Buffer) => {
      stdout += data.toString();
      const match = /ready (\S+)/.exec(stdout);
      if (match) resolve({ child, ready: match[1], stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
  });
}

function receiverScript(mergeIntervalMs: number): string {
  return `
    const { startReceiver } = await import(${JSON.stringify(builtModule('receiver/index.js'))});
    const { createLogger } = await import(${JSON.stringify(builtModule('log/index.js'))});
    const receiver = await startReceiver({
      host: '127.0.0.1', port: 0, authorization: ${JSON.stringify(AUTH)}, maxBodyBytes: 65536,
      journalDir: ${JSON.stringify(journalDir())}, warehousePath: ${JSON.stringify(warehousePath())},
      logger: createLogger({ level: 'warn', pretty: false }), mergeIntervalMs: ${mergeIntervalMs},
    });
    process.stdin.on('data', async () => { const result = await receiver.mergeNow(); process.stdout.write('merge ' + result.status + '\\n'); });
    process.stdout.write('ready ' + receiver.url + '\\n');`;
}

function restart(mergeIntervalMs = 0) {
  return startReceiver(
    receiverOptions({
      journalDir: journalDir(),
      warehousePath: warehousePath(),
      logger: capturedLogger('info').logger,
      mergeIntervalMs,
    }),
  );
}

/** Distinct event bodies: users and venues vary, and the same pair recurs with growing visits. */
function bodies(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const user = `0d6f7d0e-6a8f-4c43-9e1a-${String(i % 37).padStart(12, '0')}`;
    const venue = `7a1e2b3c-1111-4aaa-8bbb-${String(i % 5).padStart(12, '0')}`;
    const day = String(1 + (i % 28)).padStart(2, '0');
    return eventBody({ user, venue, visits: i + 1, last: `2026-01-${day}T10:00:00Z`, accepted: `2026-01-01T10:00:${String(i % 60).padStart(2, '0')}Z` });
  });
}

describe('a receiver killed with SIGKILL', () => {
  it('loses no acknowledged event and duplicates none after a restart', async () => {
    const { child, ready: url } = await runChild(receiverScript(40));
    const sent = bodies(600);
    const acknowledged = new Set<string>();
    let next = 0;
    let killed = false;
    // 16 senders; the child dies right after the 200th acknowledgement, mid-traffic (and
    // possibly mid-merge, which runs every 40 ms).
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < sent.length && !killed) {
          const body = sent[next++];
          try {
            const answer = await post(url, body);
            if (answer.status === 200) acknowledged.add(sha(body));
            if (acknowledged.size >= 200 && !killed) {
              killed = true;
              child.kill('SIGKILL');
            }
          } catch {
            // The connection died with the child.
          }
        }
      }),
    );
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    expect(acknowledged.size).toBeGreaterThanOrEqual(200);

    const receiver = await restart();
    const merge = await receiver.mergeNow();
    await receiver.close();
    expect(merge.status).toBe('merged');
    const { events } = await readTables(warehousePath());
    const stored = events.map((e) => e.event_id as string);
    expect(new Set(stored).size).toBe(stored.length);
    for (const id of acknowledged) expect(stored).toContain(id);
    const sentIds = new Set(sent.map(sha));
    expect(stored.every((id) => sentIds.has(id))).toBe(true);
  });

  it('killed just before a merge commits, merges every event exactly once after a restart', async () => {
    const { child, ready: url, stderr } = await runChild(receiverScript(0), { VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS: '60000' });
    const sent = bodies(50);
    for (const body of sent) expect((await post(url, body)).status).toBe(200);
    child.stdin!.write('merge\n');
    await expect.poll(stderr, { timeout: 20_000 }).toContain('paused before commit');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const receiver = await restart();
    expect(await receiver.mergeNow()).toMatchObject({ status: 'merged', inserted: 50, duplicates: 0 });
    await receiver.close();
    const { events, history } = await readTables(warehousePath());
    expect(events).toHaveLength(50);
    const pairs = new Set(sent.map((body) => JSON.parse(body).data).map((data) => `${data.user.id}|${data.venue.id}`));
    expect(history).toHaveLength(pairs.size);
  });
});

describe('a warehouse written by another process', () => {
  it('keeps accepting events and merges them once the lock is released', async () => {
    const holder = await runChild(`
      const { DuckDBInstance } = await import('@duckdb/node-api');
      const instance = await DuckDBInstance.create(${JSON.stringify(warehousePath())});
      process.stdin.on('data', () => { instance.closeSync(); process.stdout.write('released\\n'); process.exit(0); });
      process.stdout.write('ready locked\\n');`);
    const receiver = await restart(100);
    try {
      const body = eventBody();
      expect((await post(receiver.url, body)).status).toBe(200);
      expect(await receiver.mergeNow()).toMatchObject({ status: 'locked' });
      expect((await post(receiver.url, eventBody({ visits: 8 }))).status).toBe(200);
      expect(receiver.stats.merged.inserted).toBe(0);

      holder.child.stdin!.write('release\n');
      await new Promise((resolve) => holder.child.once('exit', resolve));
      // The periodic merge picks the events up by itself.
      await expect.poll(() => receiver.stats.merged.inserted, { timeout: 10_000 }).toBe(2);
    } finally {
      await receiver.close();
    }
    const { events, history } = await readTables(warehousePath());
    expect(events).toHaveLength(2);
    expect(history).toEqual([expect.objectContaining({ user_id: USER_1, venue_id: VENUE_1, visits_count: 8 })]);
  });
});
