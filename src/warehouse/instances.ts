import { DuckDBInstance } from '@duckdb/node-api';

interface Entry {
  readonly instance: Promise<DuckDBInstance>;
  readonly readOnly: boolean;
  readonly sealed: boolean;
  users: number;
}

/**
 * One DuckDBInstance per file per process: two instances of the same file in one process
 * both open, and writes through the second are lost. Warehouses opened twice in a process
 * (serve: jobs plus receiver) share the instance; the last close releases the file lock.
 */
const entries = new Map<string, Entry>();

/**
 * `sealed` (ad-hoc queries): READ_ONLY and without access to other files, so COPY TO, ATTACH,
 * EXPORT and INSTALL are refused by DuckDB itself; it cannot be switched back on at runtime.
 * A sealed instance serves only sealed users (the export must write its files); a sealed user
 * may share an open writer's instance, where its read-only transaction still refuses writes.
 */
export async function acquireInstance(path: string, readOnly: boolean, sealed = false): Promise<DuckDBInstance> {
  const entry = entries.get(path);
  // A writable instance serves read-only users too (DuckDB refuses a second configuration).
  if (entry && (!entry.readOnly || readOnly) && (!entry.sealed || sealed)) {
    entry.users++;
    return entry.instance;
  }
  if (entry) {
    throw new Error(`${path} is already open read-only in this process; close it before opening it for writing`);
  }
  const options: Record<string, string> = readOnly ? { access_mode: 'READ_ONLY' } : {};
  if (readOnly && sealed) options.enable_external_access = 'false';
  const created: Entry = {
    instance: DuckDBInstance.fromCache(path, options),
    readOnly,
    sealed: readOnly && sealed,
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
