import { DuckDBInstance } from '@duckdb/node-api';

interface Entry {
  readonly instance: Promise<DuckDBInstance>;
  readonly readOnly: boolean;
  users: number;
}

/**
 * One DuckDBInstance per file per process: two instances of the same file in one process
 * both open, and writes through the second are lost. Warehouses opened twice in a process
 * (serve: jobs plus receiver) share the instance; the last close releases the file lock.
 */
const entries = new Map<string, Entry>();

export async function acquireInstance(path: string, readOnly: boolean): Promise<DuckDBInstance> {
  const entry = entries.get(path);
  // A writable instance serves read-only users too (DuckDB refuses a second configuration).
  if (entry && (!entry.readOnly || readOnly)) {
    entry.users++;
    return entry.instance;
  }
  if (entry) {
    throw new Error(`${path} is already open read-only in this process; close it before opening it for writing`);
  }
  const created: Entry = {
    instance: DuckDBInstance.fromCache(path, readOnly ? { access_mode: 'READ_ONLY' } : {}),
    readOnly,
    users: 1,
  };
  entries.set(path, created);
  try {
    return await created.instance;
  } catch (error) {
    entries.delete(path);
    throw error;
  }
}

export async function releaseInstance(path: string): Promise<void> {
  const entry = entries.get(path);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  entries.delete(path);
  (await entry.instance).closeSync();
}

/** How many open Warehouses share the file's instance in this process. */
export function usersOf(path: string): number {
  return entries.get(path)?.users ?? 0;
}
