/**
 * `warehouse.memoryLimit` bounds DuckDB's buffer pool of a write run (its default is 80 % of
 * the machine's memory): the setting reaches the instance, and only a size is accepted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { sizeInBytes } from '../../src/infra/memory-size.js';
import { openWarehouse } from '../../src/warehouse/index.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-memory-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sets DuckDB memory_limit from warehouse.memoryLimit (128MB by default)', async () => {
  const config = resolveConfig({ warehouse: { path: join(dir, 'w.duckdb') } }, {});
  expect(config.warehouse.memoryLimit).toBe('128MB');
  const warehouse = await openWarehouse(config.warehouse.path);
  try {
    await warehouse.startWriteRun(config.warehouse.memoryLimit);
    const [row] = await warehouse.query<{ limit: string }>("SELECT current_setting('memory_limit') AS limit");
    // DuckDB reports 128MB (10^6 bytes) in MiB.
    expect(row?.limit).toBe('122.0 MiB');
    await expect(warehouse.startWriteRun("1GB'; DROP TABLE cursors; --")).rejects.toThrow(/not a size/);
  } finally {
    await warehouse.close();
  }
});

it('refuses a memoryLimit that is not a size, naming the key', () => {
  expect(() => resolveConfig({ warehouse: { memoryLimit: 'lots' } }, {})).toThrow(/memoryLimit: a size such as "128MB"/);
  // One problem, not a second one about the minimum of a size that could not be read.
  expect(() => resolveConfig({ warehouse: { memoryLimit: 'lots' } }, {})).not.toThrow(/at least 64MB/);
});

it('refuses a memoryLimit below 64MB, saying what to write instead', () => {
  for (const small of ['32MB', '63.9MB', '60MiB', '512KB']) {
    expect(() => resolveConfig({ warehouse: { memoryLimit: small } }, {}), small).toThrow(/memoryLimit[\s\S]*at least 64MB[\s\S]*use 64MB or more/);
  }
  for (const enough of ['64MB', '61.1MiB', '0.5GB', '1GiB']) {
    expect(resolveConfig({ warehouse: { memoryLimit: enough } }, {}).warehouse.memoryLimit, enough).toBe(enough);
  }
});

it('reads sizes as DuckDB does: MB in powers of 1,000, MiB in powers of 1,024', () => {
  expect(sizeInBytes('128MB')).toBe(128_000_000);
  expect(sizeInBytes('64MiB')).toBe(64 * 1024 * 1024);
  expect(sizeInBytes('1.5GB')).toBe(1_500_000_000);
  expect(sizeInBytes('2 TiB')).toBe(2 * 1024 ** 4);
  expect(sizeInBytes('12kb')).toBe(12_000);
  expect(sizeInBytes('lots')).toBeNaN();
});
