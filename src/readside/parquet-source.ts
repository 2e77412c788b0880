import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EXPORT_TABLES, type ExportTable, type TableEntry } from '../export/index.js';
import { identifier, literal } from '../export/sql-text.js';
import { exportNotAFolder } from '../export/environment-errors.js';
import { sql } from '../warehouse/sql-files.js';
import { parquetMissing } from './errors.js';
import { localManifests, tableEntries } from './lake-manifests.js';
import { monthVariable } from './months-read.js';
import { createReportMacros } from './report-macros.js';
import { utcSession } from '../warehouse/read-connection.js';
import { DEFAULT_QUERY_MEMORY_LIMIT } from '../config/schema.js';
import { dryRunBeside } from './dry-run.js';
import { lockDown } from './lock-down.js';
import type { QuerySource } from './warehouse-source.js';
import { sessionOf } from '../warehouse/session.js';
import { BUILT_IN_LABEL_INPUT, createVenueLabels, type VenueLabelInput } from '../venue-names/index.js';

/** The Parquet files under a table's folder, every writer's, in a stable order. */
function parquetFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.parquet'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The month partitions a report declared it reads (src/readside/months-read.ts), as a filter on
 * the hive column: DuckDB folds the variables to constants and opens only the files of those
 * months. Unset variables (every other query) keep every month.
 */
function monthFilter(table: string): string {
  const first = `getvariable(${literal(monthVariable(table, 'first'))})`;
  const last = `getvariable(${literal(monthVariable(table, 'last'))})`;
  return ` WHERE (${first} IS NULL OR month >= ${first}) AND (${last} IS NULL OR month <= ${last})`;
}

/**
 * The view standing in for one table: the exported files read the way any engine reads them
 * (docs/lake.md), every writer's files, with the table's columns in the warehouse's order and
 * types (a manifest knows them). A table exported with no rows still gets a typed, empty view.
 * Generated from the manifests (paths and columns differ per export), so it is built here, not
 * kept in sql/.
 *
 * `files` are the table's data files, listed when the source opens (local paths, or
 * `s3://bucket/prefix/<table>/…` URLs): by name rather than by a glob, because the sealed
 * instance may open exactly these files and no folder (lock-down.ts).
 */
export function viewSql(table: ExportTable, files: readonly string[], entry: TableEntry | undefined): string | undefined {
  const partitioned = table.partitionBy !== undefined;
  const columns = entry?.columns;
  if (files.length > 0) {
    const list = `[${files.map(literal).join(', ')}]`;
    const source = partitioned
      ? `read_parquet(${list}, hive_partitioning = true, hive_types = {'stream': VARCHAR, 'month': VARCHAR})`
      : `read_parquet(${list}, hive_partitioning = false)`;
    const select = columns
      ? columns.map((c) => `CAST(${identifier(c.name)} AS ${c.type}) AS ${identifier(c.name)}`).join(', ')
      : partitioned
        ? '* EXCLUDE (month)'
        : '*';
    return `CREATE VIEW ${identifier(table.name)} AS SELECT ${select} FROM ${source}${partitioned ? monthFilter(table.name) : ''}`;
  }
  if (!columns) return undefined;
  const nulls = columns.map((c) => `CAST(NULL AS ${c.type}) AS ${identifier(c.name)}`).join(', ');
  return `CREATE VIEW ${identifier(table.name)} AS SELECT ${nulls} WHERE false`;
}

/** How a source over views is prepared before its views, and sealed after them. */
export interface ViewSourceSteps {
  /** Runs first (e.g. loading an extension, creating a secret). */
  readonly prepare?: (connection: DuckDBConnection) => Promise<void>;
  /** The data files the views read: the only files the sealed instance may open. */
  readonly files: readonly string[];
  /** query.memoryLimit. */
  readonly memoryLimit: string;
  /** The config's venue names and venue streams (default: none, the built-in streams). */
  readonly labels?: VenueLabelInput;
}

/** Tables the venue labels read (sql/views/venue-labels.sql). */
const LABEL_TABLES = ['venues', 'sync_cursors'];

/**
 * An in-memory DuckDB whose views are named like the warehouse tables (the `statements`), with
 * the reports' macros, then sealed (lock-down.ts): it may open `steps.files` and nothing else,
 * and every statement but a SELECT first runs where it may open nothing (dry-run.ts).
 */
export async function sourceOverViews(
  instance: DuckDBInstance,
  connection: DuckDBConnection,
  statements: readonly string[],
  steps: ViewSourceSteps,
): Promise<QuerySource> {
  try {
    await utcSession(connection);
    await steps.prepare?.(connection);
    for (const statement of statements) await connection.run(statement);
    const hasRoles = statements.some((s) => s.includes('"venue_roles"')) && statements.some((s) => s.includes('"project_roles"'));
    if (hasRoles) await connection.run(sql('views/current-roles.sql'));
    // The reports' shared row selections: macros only, so the migration runs as it is here.
    await createReportMacros(connection);
    // A lake exported without the tables the labels read (export --tables) gets them empty, as
    // a table exported with no rows: every venue is then shown by its short id.
    if (LABEL_TABLES.some((table) => !statements.some((s) => s.startsWith(`CREATE VIEW "${table}" `)))) {
      await connection.run(sql('views/venue-label-tables.sql'));
    }
    await createVenueLabels(sessionOf(connection), steps.labels ?? BUILT_IN_LABEL_INPUT);
    await lockDown(connection, { memoryLimit: steps.memoryLimit, files: steps.files });
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  const dryRun = dryRunBeside(connection, steps.memoryLimit);
  return {
    kind: 'parquet',
    connection,
    dryRun,
    async close() {
      dryRun.close();
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * An in-memory DuckDB whose views are named like the warehouse tables and read the Parquet
 * export in a local folder — every writer's files and manifests in it — so the same SQL runs on
 * both and needs no lock on the warehouse file.
 */
export async function openParquetSource(dir: string, memoryLimit: string = DEFAULT_QUERY_MEMORY_LIMIT, labels?: VenueLabelInput): Promise<QuerySource> {
  const root = resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw exportNotAFolder(root);
  const entries = tableEntries(localManifests(root));
  const files: string[] = [];
  const statements = EXPORT_TABLES.flatMap((table) => {
    const tableFiles = parquetFiles(join(root, table.name));
    files.push(...tableFiles);
    const sql = viewSql(table, tableFiles, entries[table.name]);
    return sql ? [sql] : [];
  });
  if (statements.length === 0) throw parquetMissing(dir);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  return sourceOverViews(instance, connection, statements, { files, memoryLimit, ...(labels ? { labels } : {}) });
}
