import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * How a write run (`sync`, `backfill`) keeps DuckDB's memory from following the size of the
 * warehouse (docs/scaling.md, "Memory"). Two things in DuckDB grow with it:
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
 * - **Cached blocks.** Blocks of the tables that commits read stay in the pool up to
 *   `warehouse.memoryLimit`; every 10 commits the run releases them.
 *
 * Measured (5,000 venues x 7 days, the B3 setup, single runs, peak RSS): 224 MB with all of
 * this, 230-232 MB with the run's checkpoints on two threads, 268 MB with none of it; a final
 * merge of everything at the end of the run instead peaked at 278-282 MB.
 */
export const WRITE_RUN_MEMORY = {
  /** Commits between two releases of the pool (with the release alone, every 3, 5, 10 and 30 measured alike: the peaks were merges). */
  releaseEveryCommits: 10,
  /** The WAL size at which the run checkpoints (8 and 12 MiB measured the same). */
  checkpointWalBytes: 8 * 1024 * 1024,
} as const;

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
    private readonly policy: { readonly releaseEveryCommits: number; readonly checkpointWalBytes: number } = WRITE_RUN_MEMORY,
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
      await this.connection.run('CHECKPOINT');
    } finally {
      await this.connection.run('SET max_vacuum_tasks = 0');
      await this.connection.run(`SET threads = ${Number(threads)}`);
    }
  }

  private async releasePool(): Promise<void> {
    try {
      await this.connection.run(`SET memory_limit = '${RELEASE_LIMIT}'`);
    } catch (error) {
      // DuckDB evicted what it could and kept the old limit: that is the release.
      if (!/memory limit/i.test(String(error))) throw error;
    } finally {
      await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
    }
  }

  private async setting(name: string): Promise<string> {
    const reader = await this.connection.runAndReadAll(`SELECT current_setting('${name}')`);
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
