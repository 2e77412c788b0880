import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWarehouseWhenFree } from '../../src/warehouse/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Another process holds the file's write lock for `holdMs`, then exits. */
function holdLock(path: string, holdMs: number): Promise<void> {
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(${JSON.stringify(path)});
    const connection = await instance.connect();
    await connection.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
    process.stdout.write('held\\n');
    // The timer keeps both reachable: a collected instance would close and free the lock early.
    setTimeout(() => { connection.closeSync(); instance.closeSync(); process.exit(0); }, ${holdMs});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.on('error', reject);
  });
}

describe('openWarehouseWhenFree', () => {
  it('waits for a short lock held by another process, then opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-etl-lockwait-'));
    dirs.push(dir);
    const path = join(dir, 'w.duckdb');
    await holdLock(path, 1500);
    const started = Date.now();
    const warehouse = await openWarehouseWhenFree(path, { waitMs: 20_000 });
    expect(Date.now() - started).toBeGreaterThan(200);
    await warehouse.close();
  });

  it('gives up with VENUE_WAREHOUSE_LOCKED naming the holder when the lock outlasts the wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-etl-lockwait-'));
    dirs.push(dir);
    const path = join(dir, 'w.duckdb');
    await holdLock(path, 5000);
    await expect(openWarehouseWhenFree(path, { waitMs: 600 })).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_LOCKED',
      message: expect.stringMatching(/PID \d+/),
    });
  });
});
