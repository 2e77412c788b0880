import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { openWarehouse } from '../../src/warehouse/index.js';
import { EtlError } from '../../src/errors/index.js';
import { repoRoot, tempDir } from './helpers.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return dir;
}

async function rejection(promise: Promise<unknown>): Promise<EtlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EtlError);
  return error as EtlError;
}

describe('openWarehouse', () => {
  it('creates the folder, applies every migration once and records it', async () => {
    const path = join(scratch(), 'nested', 'dir', 'warehouse.duckdb');
    const known = readdirSync(join(repoRoot, 'sql', 'migrations')).filter((f) => f.endsWith('.sql')).length;

    const first = await openWarehouse(path);
    expect(first.migrations.every((step) => step.status === 'applied')).toBe(true);
    expect(first.migrations).toHaveLength(known);
    const tables = await first.query<{ table_name: string }>(`SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY 1`);
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'series_points',
        'summary_values',
        'venue_roles',
        'project_roles',
        'accounts',
        'upsert_events',
        'users',
        'venues',
        'user_venue_history',
        'user_venue_agreements',
        'sync_cursors',
        'sync_runs',
        'sync_errors',
        'schema_migrations',
        'backfills',
        'backfill_slices',
      ]),
    );
    const views = await first.query<{ view_name: string }>(`SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1`);
    expect(views.map((v) => v.view_name)).toEqual(expect.arrayContaining(['current_project_roles', 'current_venue_roles']));
    await first.close();

    const second = await openWarehouse(path);
    expect(second.migrations.every((step) => step.status === 'already-applied')).toBe(true);
    const recorded = await second.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(recorded.map((r) => r.version)).toEqual(second.migrations.map((m) => m.version));
    await second.close();
  });

  it('uses the contract column types', async () => {
    const warehouse = await openWarehouse(join(scratch(), 'w.duckdb'));
    cleanups.push(() => warehouse.close());
    const columns = await warehouse.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM duckdb_columns()
       WHERE table_name IN ('series_points', 'summary_values', 'accounts') ORDER BY table_name, column_index`,
    );
    const of = (table: string) => columns.filter((c) => c.table_name === table).map((c) => `${c.column_name} ${c.data_type}`);
    expect(of('series_points')).toEqual([
      'venue_id UUID',
      'stream VARCHAR',
      'metric VARCHAR',
      "granularity ENUM('hour', 'day')",
      'ts TIMESTAMP WITH TIME ZONE',
      'value DOUBLE',
      'run_id VARCHAR',
      'loaded_at TIMESTAMP WITH TIME ZONE',
    ]);
    expect(of('summary_values')).toEqual([
      'venue_id UUID',
      'stream VARCHAR',
      'metric VARCHAR',
      'period_start DATE',
      'period_end DATE',
      'value DOUBLE',
      'run_id VARCHAR',
      'loaded_at TIMESTAMP WITH TIME ZONE',
    ]);
    expect(of('accounts')).toContain('roles_names VARCHAR[]');
    expect(of('accounts')).toContain('tags JSON');
  });

  it('refuses a file migrated by a newer venue-etl', async () => {
    const path = join(scratch(), 'w.duckdb');
    const warehouse = await openWarehouse(path);
    await warehouse.transaction((s) => s.run(`INSERT INTO schema_migrations VALUES (999, 'from_the_future', now())`));
    await warehouse.close();

    const error = await rejection(openWarehouse(path));
    expect(error.code).toBe('VENUE_WAREHOUSE_TOO_NEW');
    expect(error.message).toContain('999');
    expect((await rejection(openWarehouse(path, { readOnly: true }))).code).toBe('VENUE_WAREHOUSE_TOO_NEW');
  });

  it('refuses a read-only open of a missing file without creating it', async () => {
    const path = join(scratch(), 'absent.duckdb');
    const error = await rejection(openWarehouse(path, { readOnly: true }));
    expect(error.code).toBe('VENUE_WAREHOUSE_MISSING');
    expect(existsSync(path)).toBe(false);
  });

  it('reports a path it cannot use as a warehouse without a stack trace', async () => {
    const dir = scratch();
    const notADatabase = join(dir, 'notes.duckdb');
    writeFileSync(notADatabase, 'this is not a DuckDB file, just text long enough to have a header'.repeat(100));
    const garbage = await rejection(openWarehouse(notADatabase));
    expect(garbage.code).toBe('VENUE_WAREHOUSE_OPEN');
    expect(garbage.message).toContain(notADatabase);
    const underAFile = await rejection(openWarehouse(join(notADatabase, 'w.duckdb')));
    expect(underAFile.code).toBe('VENUE_WAREHOUSE_OPEN');
  });

  it('read-only warehouses query but do not write', async () => {
    const path = join(scratch(), 'w.duckdb');
    await (await openWarehouse(path)).close();
    const reader = await openWarehouse(path, { readOnly: true });
    cleanups.push(() => reader.close());
    expect(await reader.query('SELECT count(*)::INTEGER AS n FROM series_points')).toEqual([{ n: 0 }]);
    await expect(reader.startRun('sync')).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_READ_ONLY' });
  });

  it('shares one instance per file in a process', async () => {
    const path = join(scratch(), 'w.duckdb');
    const a = await openWarehouse(path);
    const b = await openWarehouse(path);
    await a.transaction((s) => s.run(`INSERT INTO sync_errors VALUES ('r', 's', 'x', NULL, NULL, 'E', 'm', now())`));
    expect(await b.query('SELECT count(*)::INTEGER AS n FROM sync_errors')).toEqual([{ n: 1 }]);
    await a.close();
    expect(await b.query('SELECT count(*)::INTEGER AS n FROM sync_errors')).toEqual([{ n: 1 }]);
    await b.close();
  });

  it('tells a second writing process who holds the file', async () => {
    const path = join(scratch(), 'w.duckdb');
    await (await openWarehouse(path)).close();
    const holder = await holdFile(path);
    cleanups.push(() => {
      holder.kill('SIGKILL');
    });

    const error = await rejection(openWarehouse(path));
    expect(error.code).toBe('VENUE_WAREHOUSE_LOCKED');
    expect(error.exitCode).toBe(1);
    // The holder is a plain `node` script here (a venue-etl command is named as `venue-etl sync`…).
    expect(error.message).toBe(`the warehouse ${path} is in use by \`node\` (PID ${holder.pid})`);
    expect(error.hint).toMatch(/serve/);
    expect(error.hint).toMatch(/sql --parquet/);
    expect(error.message).not.toMatch(/IO Error/);
    expect((await rejection(openWarehouse(path, { readOnly: true }))).code).toBe('VENUE_WAREHOUSE_LOCKED');
  });
});

/** A child process that opens the file for writing and keeps it open until killed. */
async function holdFile(path: string): Promise<ChildProcess> {
  // Keep DuckDBInstance referenced so the import is not elided, and its version in sync.
  void DuckDBInstance;
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(${JSON.stringify(path)});
    const connection = await instance.connect();
    process.stdout.write('ready\\n');
    // Referenced by the timer, so neither is collected (which would free the lock).
    setInterval(() => [instance, connection], 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}
