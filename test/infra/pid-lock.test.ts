import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireExportLock } from '../../src/export/export-lock.js';
import { acquirePidLock } from '../../src/infra/pid-lock.js';
import { lockJournal } from '../../src/receiver/journal-lock.js';
import { acquireServeLock } from '../../src/scheduler/serve-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const busy = (holder: number): Error => Object.assign(new Error(`held by ${holder}`), { code: 'BUSY', holder });

/** A process that runs until killed: the holder of a live lock. */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  if (child.pid === undefined) throw new Error('the child process has no pid');
  return Object.assign(child, { pid: child.pid });
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', '']);
  if (result.pid === undefined) throw new Error('the child process has no pid');
  return result.pid;
}

describe('the pid lock', () => {
  it('creates the file with this pid and removes it on release', () => {
    const path = join(dir, 'a.lock');
    const lock = acquirePidLock(path, busy);
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path)).toBe(false);
    lock.release();
  });

  it('takes over a file holding this pid from a previous life (a container restarted as PID 1)', () => {
    const path = join(dir, 'a.lock');
    writeFileSync(path, `${process.pid}\n`);
    const lock = acquirePidLock(path, busy);
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('refuses while this process holds it, and takes it again once released', () => {
    const path = join(dir, 'a.lock');
    const lock = acquirePidLock(path, busy);
    expect(() => acquirePidLock(path, busy)).toThrow(expect.objectContaining({ code: 'BUSY', holder: process.pid }));
    lock.release();
    acquirePidLock(path, busy).release();
  });

  it('refuses a file held by another live process, naming it, and leaves the file alone', async () => {
    const path = join(dir, 'a.lock');
    const other = await liveProcess();
    try {
      writeFileSync(path, `${other.pid}\n`);
      expect(() => acquirePidLock(path, busy)).toThrow(expect.objectContaining({ code: 'BUSY', holder: other.pid }));
      expect(readFileSync(path, 'utf8').trim()).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a file of a process that is gone, and an empty or garbled one', () => {
    for (const content of [`${deadPid()}\n`, '', 'not a pid\n']) {
      const path = join(dir, 'a.lock');
      writeFileSync(path, content);
      const lock = acquirePidLock(path, busy);
      expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
      lock.release();
    }
  });

  it('does not remove on release a lock another process has taken over since', async () => {
    const path = join(dir, 'a.lock');
    const lock = acquirePidLock(path, busy);
    const other = await liveProcess();
    try {
      writeFileSync(path, `${other.pid}\n`);
      lock.release();
      expect(readFileSync(path, 'utf8').trim()).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('the export, serve and journal locks', () => {
  const locks = [
    { name: 'export', file: '.venue-etl-export.lock', code: 'VENUE_EXPORT_BUSY', take: (d: string) => ({ release: acquireExportLock(d, '') }) },
    { name: 'serve', file: 'warehouse.duckdb.serve.pid', code: 'VENUE_SERVE_RUNNING', take: (d: string) => acquireServeLock(join(d, 'warehouse.duckdb')) },
    { name: 'journal', file: 'writer.lock', code: 'VENUE_RECEIVER_JOURNAL_LOCKED', take: (d: string) => lockJournal(d) },
  ];

  for (const { name, file, code, take } of locks) {
    it(`${name}: takes over its own pid left by a previous life, refuses a live other holder`, async () => {
      mkdirSync(dir, { recursive: true });
      const path = join(dir, file);
      writeFileSync(path, `${process.pid}\n`);
      const lock = await take(dir);
      expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
      await expect(async () => take(dir)).rejects.toMatchObject({ code, details: expect.objectContaining({ pid: process.pid }) });
      lock.release();
      expect(existsSync(path)).toBe(false);

      const other = await liveProcess();
      try {
        writeFileSync(path, `${other.pid}\n`);
        await expect(async () => take(dir)).rejects.toMatchObject({ code, details: expect.objectContaining({ pid: other.pid }) });
      } finally {
        other.kill('SIGKILL');
      }
    });
  }
});
