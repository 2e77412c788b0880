/**
 * A write run's own memory handling (src/warehouse/write-run-memory.ts): DuckDB's checkpoints
 * do not merge row groups during the run, the run's own checkpoints merge one set per table
 * (so the table ends as compact as DuckDB keeps it by default) under a limit of what the pool
 * holds plus a headroom, the pool is released, and DuckDB's settings are back when the run
 * ends. Real DuckDB files in a temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointLimitBytes, WRITE_RUN_MEMORY, WriteRunMemory } from '../../src/warehouse/write-run-memory.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-write-run-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 60,000 rows a commit: each checkpoint leaves a partly filled row group (122,880 rows a group). */
const ROWS_PER_COMMIT = 60_000;
const COMMITS = 12;

async function open(name: string): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection; path: string; close: () => void }> {
  const path = join(dir, `${name}.duckdb`);
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE points (venue_id VARCHAR, ts BIGINT, value DOUBLE)');
  return {
    instance,
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
const EVERY_COMMIT = { ...WRITE_RUN_MEMORY, releaseEveryCommits: 3, checkpointWalBytes: 1 };
const alone = () => false;

describe('a write run', () => {
  it('keeps a table as compact as DuckDB does by default, where DuckDB checkpointing without merges fragments it', async () => {
    const byDefault = await open('default');
    const unmerged = await open('unmerged');
    const run = await open('run');
    try {
      await unmerged.connection.run('SET max_vacuum_tasks = 0');
      const memory = new WriteRunMemory(run.connection, `${run.path}.wal`, '128MB', alone, EVERY_COMMIT);
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
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', alone, EVERY_COMMIT);
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
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', alone, {
        ...WRITE_RUN_MEMORY,
        releaseEveryCommits: 1000,
        checkpointWalBytes: 64 * 1024 * 1024,
      });
      await memory.start();
      await insertCommit(connection, 0);
      await memory.afterCommit();
      expect(await walBytes()).toBeGreaterThan(0);
      const lowThreshold = new WriteRunMemory(connection, `${path}.wal`, '128MB', alone, EVERY_COMMIT);
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
      const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', alone, {
        ...WRITE_RUN_MEMORY,
        releaseEveryCommits: 1,
        checkpointWalBytes: 1024 ** 4,
      });
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

  it("checkpoints under what the pool holds plus the headroom when it has the instance to itself, under the run's limit when it shares it", async () => {
    const headroom = 16_000_000;
    const limitDuringCheckpoint = async (name: string, shared: boolean): Promise<string> => {
      const { instance, connection, path, close } = await open(name);
      try {
        const memory = new WriteRunMemory(connection, `${path}.wal`, '128MB', () => shared, { ...EVERY_COMMIT, checkpointHeadroomBytes: headroom });
        await memory.start();
        await insertCommit(connection, 0);
        // DuckDB sleeps before the checkpoint; a second connection reads the global limit meanwhile.
        await connection.run('SET debug_checkpoint_sleep_ms = 300');
        const limits = await sampleLimitWhile(instance, () => memory.afterCommit());
        await connection.run('SET debug_checkpoint_sleep_ms = 0');
        expect(await scalar(connection, "SELECT current_setting('memory_limit')")).toBe('122.0 MiB');
        await memory.finish();
        return mostFrequent(limits);
      } finally {
        close();
      }
    };
    const limited = mibBytes(await limitDuringCheckpoint('limited', false));
    expect(limited).toBeGreaterThanOrEqual(headroom);
    expect(limited).toBeLessThan(headroom + 16_000_000);
    expect(await limitDuringCheckpoint('shared', true)).toBe('122.0 MiB');
  });
});

describe('the limit of a checkpoint', () => {
  it('is what the pool holds plus the headroom, unless the instance is shared or the run limit is lower', () => {
    expect(checkpointLimitBytes(5e6, 32e6, 128e6, false)).toBe(37e6);
    expect(checkpointLimitBytes(5e6, 32e6, 128e6, true)).toBeUndefined();
    expect(checkpointLimitBytes(40e6, 32e6, 64e6, false)).toBeUndefined();
  });
});

/** `memory_limit` as DuckDB shows it ("38.1 MiB"), read every 10 ms on a second connection while `work` runs. */
async function sampleLimitWhile(instance: DuckDBInstance, work: () => Promise<void>): Promise<string[]> {
  const observer = await instance.connect();
  const limits: string[] = [];
  let done = false;
  const sampling = (async () => {
    while (!done) {
      limits.push(await scalar(observer, "SELECT current_setting('memory_limit')"));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await sampling;
    observer.closeSync();
  }
  return limits;
}

/** The value seen most often: the one during DuckDB's sleep, which outlasts the settings around it. */
function mostFrequent(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

function mibBytes(shown: string): number {
  const match = /^([\d.]+) MiB$/.exec(shown);
  if (!match) throw new Error(`not a limit in MiB: ${shown}`);
  return Number(match[1]) * 1024 ** 2;
}
