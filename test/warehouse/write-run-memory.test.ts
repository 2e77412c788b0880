/**
 * A write run's own memory handling (src/warehouse/write-run-memory.ts): DuckDB's checkpoints
 * do not merge row groups during the run, the run's own checkpoints merge one set per table
 * (so the table ends as compact as DuckDB keeps it by default), the pool is released, and
 * DuckDB's settings are back when the run ends. Real DuckDB files in a temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteRunMemory } from '../../src/warehouse/write-run-memory.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-write-run-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 60,000 rows a commit: each checkpoint leaves a partly filled row group (122,880 rows a group). */
const ROWS_PER_COMMIT = 60_000;
const COMMITS = 12;

async function open(name: string): Promise<{ connection: DuckDBConnection; path: string; close: () => void }> {
  const path = join(dir, `${name}.duckdb`);
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE points (venue_id VARCHAR, ts BIGINT, value DOUBLE)');
  return {
    connection,
    path,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

async function insertCommit(connection: DuckDBConnection, commit: number): Promise<void> {
  await connection.run(`INSERT INTO points SELECT 'venue-' || (i % 997), ${commit} * ${ROWS_PER_COMMIT} + i, i * 0.5 FROM range(${ROWS_PER_COMMIT}) t(i)`);
}

async function scalar(connection: DuckDBConnection, sql: string): Promise<string> {
  const reader = await connection.runAndReadAll(sql);
  return String(reader.getRows()[0]?.[0]);
}

const rowGroups = (connection: DuckDBConnection) => scalar(connection, "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('points')").then(Number);

/** Every commit checkpoints: the WAL threshold is one byte. */
const EVERY_COMMIT = { releaseEveryCommits: 3, checkpointWalBytes: 1 };

describe('a write run', () => {
  it('keeps a table as compact as DuckDB does by default, where DuckDB checkpointing without merges fragments it', async () => {
    const byDefault = await open('default');
    const unmerged = await open('unmerged');
    const run = await open('run');
    try {
      await unmerged.connection.run('SET max_vacuum_tasks = 0');
      const memory = new WriteRunMemory(run.connection, `${run.path}.wal`, '128MB', EVERY_COMMIT);
      await memory.start();
      for (let commit = 0; commit < COMMITS; commit++) {
        await insertCommit(byDefault.connection, commit);
        await byDefault.connection.run('CHECKPOINT');
        await insertCommit(unmerged.connection, commit);
        await unmerged.connection.run('CHECKPOINT');
        await insertCommit(run.connection, commit);
        await memory.afterCommit();
      }
      await memory.finish();
      const [defaultGroups, unmergedGroups, runGroups] = await Promise.all([
        rowGroups(byDefault.connection),
        rowGroups(unmerged.connection),
        rowGroups(run.connection),
      ]);
      // 720,000 rows fit in 6 full row groups.
      expect(defaultGroups).toBeLessThanOrEqual(7);
      expect(unmergedGroups).toBeGreaterThanOrEqual(COMMITS);
      expect(runGroups).toBeLessThanOrEqual(defaultGroups);
      expect(await scalar(run.connection, 'SELECT count(*) FROM points')).toBe(String(ROWS_PER_COMMIT * COMMITS));
    } finally {
      byDefault.close();
      unmerged.close();
      run.close();
    }
  });

  it("sets the run's limit and no merges in DuckDB's own checkpoints, then gives DuckDB its settings back", async () => {
    const { connection, path, close } = await open('settings');
    try {
      const threadsBefore = await scalar(connection, "SELECT current_setting('threads')");
      const vacuumBefore = await scalar(connection, "SELECT current_setting('max_vacuum_tasks')");
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', EVERY_COMMIT);
      await memory.start();
      expect(await scalar(connection, "SELECT current_setting('max_vacuum_tasks')")).toBe('0');
      // DuckDB reports 128MB (10^6 bytes) in MiB.
      expect(await scalar(connection, "SELECT current_setting('memory_limit')")).toBe('122.0 MiB');
      await insertCommit(connection, 0);
      await memory.afterCommit();
      // After the run's checkpoint: still no merges in DuckDB's own, its threads as they were.
      expect(await scalar(connection, "SELECT current_setting('max_vacuum_tasks')")).toBe('0');
      expect(await scalar(connection, "SELECT current_setting('threads')")).toBe(threadsBefore);
      expect(await scalar(connection, "SELECT current_setting('memory_limit')")).toBe('122.0 MiB');
      await memory.finish();
      expect(await scalar(connection, "SELECT current_setting('max_vacuum_tasks')")).toBe(vacuumBefore);
      expect(await scalar(connection, "SELECT current_setting('threads')")).toBe(threadsBefore);
    } finally {
      close();
    }
  });

  it('checkpoints once the WAL reaches its threshold, and not before', async () => {
    const { connection, path, close } = await open('wal');
    try {
      const walBytes = async () => Number(await scalar(connection, 'SELECT wal_size FROM pragma_database_size()').then((s) => parseFloat(s)));
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', { releaseEveryCommits: 1000, checkpointWalBytes: 64 * 1024 * 1024 });
      await memory.start();
      await insertCommit(connection, 0);
      await memory.afterCommit();
      expect(await walBytes()).toBeGreaterThan(0);
      const lowThreshold = new WriteRunMemory(connection, `${path}.wal`, '128MB', EVERY_COMMIT);
      await lowThreshold.afterCommit();
      expect(await walBytes()).toBe(0);
      await lowThreshold.finish();
    } finally {
      close();
    }
  });

  it('releases the blocks cached in the pool and keeps the run limit', async () => {
    const { connection, path, close } = await open('release');
    try {
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', { releaseEveryCommits: 1, checkpointWalBytes: 1024 ** 4 });
      await memory.start();
      for (let commit = 0; commit < 4; commit++) await insertCommit(connection, commit);
      await connection.run('CHECKPOINT');
      await scalar(connection, 'SELECT sum(value) FROM points');
      const cached = () => scalar(connection, "SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory() WHERE tag = 'BASE_TABLE'").then(Number);
      expect(await cached()).toBeGreaterThan(1_000_000);
      await memory.afterCommit();
      expect(await cached()).toBeLessThan(1_000_000);
      expect(await scalar(connection, "SELECT current_setting('memory_limit')")).toBe('122.0 MiB');
      await memory.finish();
    } finally {
      close();
    }
  });
});
