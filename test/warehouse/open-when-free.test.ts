import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { openWarehouseWhenFree } from '../../src/warehouse/index.js';

const dirs: string[] = [];
const holders: LockHolder[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((holder) => holder.release()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface LockHolder {
  /** Frees the lock (the process closes the file and exits); resolves once it has exited. */
  release(): Promise<void>;
}

/**
 * Another process holds the file's write lock until told to let go (a line on its stdin): the
 * tests decide when the lock ends by what they saw, not by how long a timer ran.
 */
async function holdLock(path: string): Promise<LockHolder> {
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(${JSON.stringify(path)});
    const connection = await instance.connect();
    await connection.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
    process.stdout.write('held\\n');
    // The listener keeps both reachable: a collected instance would close and free the lock early.
    process.stdin.once('data', () => { connection.closeSync(); instance.closeSync(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.on('error', reject);
    void exited.then(([code]) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
  });
  let released: Promise<void> | undefined;
  const holder: LockHolder = {
    release: () => {
      released ??= (async () => {
        child.stdin.end('release\n');
        await exited;
      })();
      return released;
    },
  };
  holders.push(holder);
  return holder;
}

/** A logger that calls `onLine` with each line it writes. */
function loggerCalling(onLine: (line: string) => void) {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      onLine(chunk.toString('utf8'));
      done();
    },
  });
  return createLogger({ level: 'info', destination, pretty: false });
}

describe('openWarehouseWhenFree', () => {
  it('waits for a lock held by another process, then opens once it is freed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-etl-lockwait-'));
    dirs.push(dir);
    const path = join(dir, 'w.duckdb');
    const holder = await holdLock(path);
    let waited = false;
    // Freed only once the opener found it held and said it waits.
    const logger = loggerCalling((line) => {
      if (!/in use by another process; waiting up to 20s/.test(line)) return;
      waited = true;
      void holder.release();
    });
    const warehouse = await openWarehouseWhenFree(path, { waitMs: 20_000, logger });
    expect(waited).toBe(true);
    await warehouse.close();
  });

  it('gives up with VENUE_WAREHOUSE_LOCKED naming the holder when the lock outlasts the wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-etl-lockwait-'));
    dirs.push(dir);
    const path = join(dir, 'w.duckdb');
    // Held until the test ends: it outlasts any wait.
    await holdLock(path);
    await expect(openWarehouseWhenFree(path, { waitMs: 600 })).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_LOCKED',
      message: expect.stringMatching(/PID \d+/),
    });
  });
});
