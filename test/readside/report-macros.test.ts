import { afterEach, beforeEach, expect, it } from 'vitest';
import { join } from 'node:path';
import { openWarehouseSource } from '../../src/readside/index.js';
import { report, runOnFile, seededWarehouse, tempDir } from './fixture.js';

// A warehouse last written before the report macros existed is opened read-only by the read
// commands, which never migrate: the reports must still run (on temporary macros).
let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.cleanup());

it('runs the reports on a warehouse that lacks the report macros, without changing the file', async () => {
  const warehouse = join(temp.dir, 'warehouse.duckdb');
  await seededWarehouse(warehouse);
  const expected = {
    devices: await report(openWarehouseSource(warehouse), 'daily-devices'),
    shares: await report(openWarehouseSource(warehouse), 'login-method-shares'),
  };
  expect(expected.devices.length).toBeGreaterThan(0);
  expect(expected.shares.length).toBeGreaterThan(0);

  await runOnFile(warehouse, ['DROP MACRO TABLE summary_periods', 'DROP MACRO TABLE series_day_totals']);
  expect(await report(openWarehouseSource(warehouse), 'daily-devices')).toEqual(expected.devices);
  expect(await report(openWarehouseSource(warehouse), 'login-method-shares')).toEqual(expected.shares);
  const left = await runOnFile(warehouse, "SELECT function_name FROM duckdb_functions() WHERE function_name IN ('summary_periods', 'series_day_totals')");
  expect(left).toEqual([]);
});
