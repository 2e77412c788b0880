import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { acquireInstance, releaseInstance } from './instances.js';
import { appliedVersions, assertNotTooNew, knownMigrations, migrate, type MigrationStep } from './migrations.js';
import { isLockError, warehouseLocked, warehouseMissing, warehouseOpenFailed } from './errors.js';
import { isEtlError } from '../errors/index.js';
import { Warehouse } from './warehouse.js';

export interface OpenWarehouseOptions {
  /** Query only: no migrations, no writes; several read-only processes may share the file. */
  readonly readOnly?: boolean;
}

/**
 * Opens (creating it and its folder when writable) the warehouse file at `path`, brings its
 * schema up to date, and returns it. Errors are EtlErrors that say what to do:
 * VENUE_WAREHOUSE_LOCKED (another process writes it), VENUE_WAREHOUSE_TOO_NEW (a newer
 * venue-etl migrated it), VENUE_WAREHOUSE_MISSING (read-only open of a missing file).
 */
export async function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Promise<Warehouse> {
  const readOnly = options.readOnly ?? false;
  const absolutePath = resolve(path);
  if (readOnly && !existsSync(absolutePath)) throw warehouseMissing(path);
  if (!readOnly) {
    try {
      mkdirSync(dirname(absolutePath), { recursive: true });
    } catch (error) {
      throw warehouseOpenFailed(path, error);
    }
  }

  let instance: DuckDBInstance;
  try {
    instance = await acquireInstance(absolutePath, readOnly);
  } catch (error) {
    throw isLockError(error) ? warehouseLocked(path, error) : warehouseOpenFailed(path, error);
  }
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    const steps = readOnly ? await checkReadable(connection, path) : await migrate(connection, path);
    return new Warehouse(path, absolutePath, readOnly, instance, connection, steps);
  } catch (error) {
    connection?.closeSync();
    await releaseInstance(absolutePath);
    throw isEtlError(error) ? error : warehouseOpenFailed(path, error);
  }
}

/** Read-only: nothing can be migrated, but a file from a newer venue-etl is still refused. */
async function checkReadable(connection: DuckDBConnection, path: string): Promise<readonly MigrationStep[]> {
  const known = knownMigrations();
  const applied = await appliedVersions(connection);
  assertNotTooNew(path, applied, known);
  return known
    .filter((migration) => applied.includes(migration.version))
    .map((migration) => ({ version: migration.version, name: migration.name, status: 'already-applied' as const }));
}
