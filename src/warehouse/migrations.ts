import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { migrationFailed, warehouseTooNew } from './errors.js';
import { expandIncludes, sql, sqlDir } from './sql-files.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly file: string;
}

/** What happened to one migration at open: Kysely-style, one result per step. */
export interface MigrationStep {
  readonly version: number;
  readonly name: string;
  readonly status: 'applied' | 'already-applied';
}

const FILE_PATTERN = /^(\d{3,})_([a-z0-9_-]+)\.sql$/i;

/** `sql/migrations/NNN_name.sql`, in version order. */
export function knownMigrations(): readonly Migration[] {
  const dir = join(sqlDir(), 'migrations');
  return readdirSync(dir)
    .flatMap((file) => {
      const match = FILE_PATTERN.exec(file);
      return match ? [{ version: Number(match[1]), name: match[2], file: join(dir, file) }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

export async function appliedVersions(connection: DuckDBConnection): Promise<readonly number[]> {
  const exists = await connection.runAndReadAll(sql('warehouse/schema-migrations-exists.sql'));
  if (Number(exists.getRowObjectsJS()[0]?.n ?? 0) === 0) return [];
  const reader = await connection.runAndReadAll(sql('warehouse/schema-migrations-applied.sql'));
  return reader.getRowObjectsJS().map((row) => Number(row.version));
}

/** A file written by a newer venue-etl may hold tables this binary would misuse: refuse it. */
export function assertNotTooNew(path: string, applied: readonly number[], known: readonly Migration[]): void {
  const fileVersion = applied.length === 0 ? 0 : Math.max(...applied);
  const knownVersion = known.length === 0 ? 0 : known[known.length - 1].version;
  const knownSet = new Set(known.map((m) => m.version));
  if (fileVersion > knownVersion || applied.some((v) => !knownSet.has(v))) {
    throw warehouseTooNew(path, fileVersion, knownVersion);
  }
}

/**
 * Applies the pending migrations in order, each in its own transaction together with its
 * schema_migrations row, so a crash leaves the file at a recorded version.
 */
export async function migrate(connection: DuckDBConnection, path: string): Promise<readonly MigrationStep[]> {
  const known = knownMigrations();
  const applied = new Set(await appliedVersions(connection));
  assertNotTooNew(path, [...applied], known);
  const steps: MigrationStep[] = [];
  for (const migration of known) {
    if (applied.has(migration.version)) {
      steps.push({ version: migration.version, name: migration.name, status: 'already-applied' });
      continue;
    }
    const text = expandIncludes(readFileSync(migration.file, 'utf8'));
    try {
      await connection.run('BEGIN TRANSACTION');
      await connection.run(text);
      await connection.run(sql('warehouse/schema-migration-record.sql'), [migration.version, migration.name]);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw migrationFailed(path, `${String(migration.version).padStart(3, '0')}_${migration.name}.sql`, error);
    }
    steps.push({ version: migration.version, name: migration.name, status: 'applied' });
  }
  return steps;
}
