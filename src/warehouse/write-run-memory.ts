import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sizeInBytes } from '../infra/memory-size.js';
import { sql } from './sql-files.js';

/**
 * How a write run (`sync`, `backfill`) keeps DuckDB's memory from following the size of the
 * warehouse (docs/scaling.md, "Memory"). Three things in DuckDB grow with it:
 *
 * - **The checkpoint's vacuum.** At each checkpoint DuckDB merges adjacent, partly filled row
 *   groups of every changed table, building the merged row groups in memory. Left to itself it
 *   schedules up to 100 merges per table on its automatic checkpoints, wherever the memory
 *   then stands: a 5,000-venue backfill peaked there (268 MB peak RSS, against 191-194 MB at
 *   1,000 venues). So during a run DuckDB's own checkpoints do not merge (`max_vacuum_tasks`
 *   0), and the run checkpoints itself once the WAL reaches 8 MiB (half of DuckDB's 16 MiB
 *   threshold, so that its own rarely fires first) and when it finishes: after releasing the
 *   pool, on one thread, with one merge per table. A checkpoint adds at most one partly
 *   filled row group per table and merges at least one set, so the tables stay as compact as
 *   DuckDB keeps them (5,000 venues x 7 days: 4 and 9 row groups, as by default).
 * - **The checkpoint's working memory.** Left at the run's limit, a checkpoint fills the pool
 *   with what it writes and merges: RSS sampled every 5 ms rose from 156-171 MB between
 *   checkpoints to 235 MB inside one. Its need is far smaller, so when the run has the
 *   instance to itself its checkpoints run with a limit of what the pool still holds after the
 *   release plus a headroom (32 MB), and DuckDB evicts as it goes.
 * - **Cached blocks.** Blocks of the tables that commits read stay in the pool up to
 *   `warehouse.memoryLimit`; every 10 commits the run releases them.
 *
 * Measured (5,000 venues x 7 days, the B3 setup, single runs, peak RSS): 201 MB with all of
 * this (189 MB at 1,000 venues), 224 MB with the checkpoints at the run's limit, 230-232 MB
 * with them on two threads, 268 MB with none of it; a final merge of everything at the end of
 * the run instead peaked at 278-282 MB.
 */
export const WRITE_RUN_MEMORY = {
  /** Commits between two releases of the pool (with the release alone, every 3, 5, 10 and 30 measured alike: the peaks were merges). */
  releaseEveryCommits: 10,
  /** The WAL size at which the run checkpoints (8 and 12 MiB measured the same). */
  checkpointWalBytes: 8 * 1024 * 1024,
  /**
   * What a checkpoint may hold beyond what the pool keeps after the release. DuckDB cannot
   * give a checkpoint less than it needs: it fails the checkpoint and closes the database until
   * the process restarts (nothing committed is lost: the WAL holds it). At 5,000 venues the
   * need measured 8-12 MB: a limit 8.1 MB above what was held failed, 11-12 MB above passed
   * every checkpoint. 32 MB is nearly three times that. Peak RSS with an absolute limit per
   * checkpoint: 193 MB at 16MB, 196 MB at 32MB, 209 MB at 48MB, 221 MB at 64MB.
   */
  checkpointHeadroomBytes: 32_000_000,
} as const;

export type WriteRunMemoryPolicy = { readonly [K in keyof typeof WRITE_RUN_MEMORY]: number };

/**
 * The limit for one of the run's checkpoints, in bytes, or undefined to keep the run's: when
 * another user shares the instance (`serve`: the receiver's merges would have to fit too), or
 * when the headroom would not be below the run's limit anyway.
 */
export function checkpointLimitBytes(heldBytes: number, headroomBytes: number, runLimitBytes: number, shared: boolean): number | undefined {
  if (shared) return undefined;
  const limit = heldBytes + headroomBytes;
  return limit < runLimitBytes ? limit : undefined;
}

/**
 * The smallest limit DuckDB is asked for when releasing the pool. It evicts every block it can
 * (writing in-memory table blocks to its temporary folder) and then refuses the limit if what is
 * pinned does not fit; either way the run's own limit is set again at once.
 */
const RELEASE_LIMIT = '1MB';

export class WriteRunMemory {
  private commits = 0;

  constructor(
    private readonly connection: DuckDBConnection,
    /** DuckDB's write-ahead log of the warehouse file: `<file>.wal`. */
    private readonly walPath: string,
    /** The run's `warehouse.memoryLimit`, already validated as a size. */
    private readonly memoryLimit: string,
    /** Whether another user shares the instance now (asked at each checkpoint). */
    private readonly sharesInstance: () => boolean,
    private readonly policy: WriteRunMemoryPolicy = WRITE_RUN_MEMORY,
  ) {}

  /** The run's settings: the pool's limit, and no merges in DuckDB's own checkpoints. */
  async start(): Promise<void> {
    await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
    await this.connection.run('SET max_vacuum_tasks = 0');
  }

  /** After each commit of the run, on the writing connection, outside any transaction. */
  async afterCommit(): Promise<void> {
    this.commits++;
    if (walBytes(this.walPath) >= this.policy.checkpointWalBytes) {
      await this.checkpoint();
    } else if (this.commits % this.policy.releaseEveryCommits === 0) {
      await this.releasePool();
    }
  }

  /**
   * The run's last checkpoint (merging what its own left), then DuckDB's default vacuum again:
   * the instance may outlive the run (`serve` shares it with the receiver and the export).
   */
  async finish(): Promise<void> {
    try {
      await this.checkpoint();
    } finally {
      await this.connection.run('RESET max_vacuum_tasks');
    }
  }

  private async checkpoint(): Promise<void> {
    await this.releasePool();
    // The merge and the new row groups' compression otherwise run side by side: one thread
    // measured 224 MB against 230-232 MB at 5,000 venues.
    const threads = await this.setting('threads');
    await this.connection.run('SET threads = 1');
    try {
      await this.connection.run('SET max_vacuum_tasks = 1');
      await this.limitCheckpoint();
      await this.connection.run('CHECKPOINT');
    } finally {
      await this.connection.run('SET max_vacuum_tasks = 0');
      await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
      await this.connection.run(`SET threads = ${Number(threads)}`);
    }
  }

  /** Lowers the pool's limit for the checkpoint that follows (the caller sets the run's back). */
  private async limitCheckpoint(): Promise<void> {
    const held = Number(await this.scalar(sql('warehouse/memory-held.sql')));
    const limit = checkpointLimitBytes(held, this.policy.checkpointHeadroomBytes, sizeInBytes(this.memoryLimit), this.sharesInstance());
    if (limit === undefined) return;
    await this.trySetLimit(`${Math.ceil(limit / 1e6)}MB`);
  }

  private async releasePool(): Promise<void> {
    try {
      // Refused or not, DuckDB has evicted what it could: that is the release.
      await this.trySetLimit(RELEASE_LIMIT);
    } finally {
      await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
    }
  }

  /**
   * Asks DuckDB for a smaller limit. It evicts every block it can and refuses the limit when
   * what stays does not fit under it (the old limit is then kept): only that refusal is caught.
   */
  private async trySetLimit(limit: string): Promise<void> {
    try {
      await this.connection.run(`SET memory_limit = '${limit}'`);
    } catch (error) {
      if (!/memory limit/i.test(String(error))) throw error;
    }
  }

  private setting(name: string): Promise<string> {
    return this.scalar(`SELECT current_setting('${name}')`);
  }

  private async scalar(sql: string): Promise<string> {
    const reader = await this.connection.runAndReadAll(sql);
    return String(reader.getRows()[0]?.[0]);
  }
}

function walBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    // No WAL: nothing committed since the last checkpoint.
    return 0;
  }
}
