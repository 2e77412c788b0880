import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, seededWarehouse, tempDir } from '../readside/fixture.js';

describe('relative paths in the config', () => {
  const { dir, cleanup } = tempDir();
  const configDir = join(dir, 'etc', 'venue-etl');
  const elsewhere = join(dir, 'elsewhere');
  const config = join(configDir, 'venue-etl.config.json');

  beforeAll(async () => {
    mkdirSync(join(configDir, 'data'), { recursive: true });
    mkdirSync(elsewhere);
    await seededWarehouse(join(configDir, 'data', 'warehouse.duckdb'));
    writeFileSync(config, JSON.stringify({ warehouse: { path: 'data/warehouse.duckdb' }, parquet: { dir: 'data/parquet' } }));
  });
  afterAll(cleanup);

  it('resolve against the config file’s folder, whatever the current folder', async () => {
    const run = await runCli(['sql', 'SELECT count(*) AS n FROM accounts', '--format', 'csv', '--config', config], { cwd: elsewhere });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('n\r\n2\r\n');
    const shown = await runCli(['config', '--config', config], { cwd: elsewhere });
    expect(shown.stdout).toContain(JSON.stringify(join(configDir, 'data', 'warehouse.duckdb')));
  });

  it('errors name the absolute path and say what it was resolved against', async () => {
    const missing = join(dir, 'other.config.json');
    writeFileSync(missing, JSON.stringify({ warehouse: { path: 'nowhere/warehouse.duckdb' } }));
    const run = await runCli(['status', '--config', 'other.config.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`VENUE_WAREHOUSE_MISSING: the warehouse ${join(dir, 'nowhere', 'warehouse.duckdb')} does not exist`);
    expect(run.stderr).toContain('relative paths in the config are resolved against the folder of the config file');
  });
});
