import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from '../log/index.js';
// The instance registry keeps one DuckDBInstance per file per process: inside `venue-etl serve`
// readers (queries, the export) share the writer's instance instead of failing on its own lock.
import { acquireInstance, releaseInstance } from './instances.js';
import { isLockError, warehouseLocked, warehouseMissing, warehouseOpenFailed } from './errors.js';
import { appliedVersions, assertNotTooNew, knownMigrations } from './migrations.js';
import { isEtlError } from '../errors/index.js';

/** A connection that reads the warehouse file; `close` gives the instance back. */
export interface ReadConnection {
  readonly connection: DuckDBConnection;
  close(): Promise<void>;
}

export interface ReadConnectionOptions {
  /**
   * Open the file as a writer would instead of READ_ONLY, so this process's own writers (in
   * `serve`: receiver merges, sync jobs) can open it while the reader is busy; other processes
   * are then locked out, as by any writer. Statements are still checked to be reads.
   */
  readonly shareWithWriters?: boolean;
  /**
   * Ad-hoc queries: the instance cannot touch other files (no COPY TO, ATTACH, EXPORT,
   * INSTALL). Not for the export, which writes Parquet through its reader.
   */
  readonly sealed?: boolean;
  /**
   * How long to wait while another process writes the file (`serve` holds it for a merge or a
   * job) before failing with VENUE_WAREHOUSE_LOCKED. Default READ_WAIT_MS; 0 fails at once.
   */
  readonly waitMs?: number;
  /** Says once, at info, that the command waits and for whom. */
  readonly logger?: Logger;
}

/**
 * Read commands wait this long for a writer: `serve`'s merges and short jobs hold the lock for
 * moments, and a query should run after them rather than fail. A nightly job holds it for
 * minutes: then the clear VENUE_WAREHOUSE_LOCKED error (with the --parquet hint) follows.
 */
export const READ_WAIT_MS = 10_000;

/**
 * A read-only connection to the warehouse. Fails with VENUE_WAREHOUSE_MISSING when the file
 * does not exist (nothing synced yet), VENUE_WAREHOUSE_LOCKED while another process writes it
 * and VENUE_WAREHOUSE_TOO_NEW when a newer venue-etl migrated it.
 */
export async function openReadConnection(path: string, options: ReadConnectionOptions = {}): Promise<ReadConnection> {
  const absolutePath = resolve(path);
  if (!existsSync(absolutePath)) throw warehouseMissing(path);
  const instance = await acquireWhenFree(path, absolutePath, options);
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    await utcSession(connection);
    // Every reader, as every writer (open.ts): a file a newer venue-etl migrated may hold tables
    // this one would misread (export would copy them to the lake, serve would fail every merge).
    assertNotTooNew(path, await appliedVersions(connection), knownMigrations());
  } catch (error) {
    connection?.closeSync();
    await releaseInstance(absolutePath);
    throw isEtlError(error) ? error : warehouseOpenFailed(path, error);
  }
  const open = connection;
  let closed = false;
  return {
    connection: open,
    async close() {
      if (closed) return;
      closed = true;
      open.closeSync();
      await releaseInstance(absolutePath);
    },
  };
}

async function acquireWhenFree(path: string, absolutePath: string, options: ReadConnectionOptions): Promise<DuckDBInstance> {
  const deadline = Date.now() + (options.waitMs ?? READ_WAIT_MS);
  let pause = 100;
  let told = false;
  for (;;) {
    try {
      return await acquireInstance(absolutePath, !(options.shareWithWriters ?? false), options.sealed ?? false);
    } catch (error) {
      if (!isLockError(error)) throw warehouseOpenFailed(path, error);
      const locked = warehouseLocked(path, error);
      if (Date.now() + pause > deadline) throw locked;
      if (!told) {
        options.logger?.info(
          { path, holder: locked.details.pid },
          `${locked.message}; waiting up to ${Math.round((options.waitMs ?? READ_WAIT_MS) / 1000)}s for it`,
        );
        told = true;
      }
      await delay(pause);
      pause = Math.min(pause * 2, 1000);
    }
  }
}

/**
 * Dates in the contract are UTC: casts such as `ts::DATE` in ad-hoc queries must not depend on
 * the machine's time zone. SESSION scope: a shared instance's other connections keep theirs.
 */
export async function utcSession(connection: DuckDBConnection): Promise<void> {
  await connection.run(`SET SESSION TimeZone = 'UTC'`);
}
