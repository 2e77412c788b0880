/**
 * `warehouse.memoryLimit` bounds DuckDB's buffer pool of a write run (its default is 80 % of
 * the machine's memory): the setting reaches the instance, and only a size is accepted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { openWarehouse } from '../../src/warehouse/index.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-memory-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sets DuckDB memory_limit from warehouse.memoryLimit (128MB by default)', async () => {
  const config = resolveConfig({ warehouse: { path: join(dir, 'w.duckdb') } }, {});
  expect(config.warehouse.memoryLimit).toBe('128MB');
  const warehouse = await openWarehouse(config.warehouse.path);
  try {
    await warehouse.limitMemory(config.warehouse.memoryLimit);
    const [row] = await warehouse.query<{ limit: string }>("SELECT current_setting('memory_limit') AS limit");
    // DuckDB reports 128MB (10^6 bytes) in MiB.
    expect(row?.limit).toBe('122.0 MiB');
    await expect(warehouse.limitMemory("1GB'; DROP TABLE cursors; --")).rejects.toThrow(/not a size/);
  } finally {
    await warehouse.close();
  }
});

it('refuses a memoryLimit that is not a size, naming the key', () => {
  expect(() => resolveConfig({ warehouse: { memoryLimit: 'lots' } }, {})).toThrow(/memoryLimit/);
});
