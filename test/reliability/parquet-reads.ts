/**
 * Reading a Parquet export back: which visible files are complete, and how the export differs
 * from the warehouse it came from (row for row, every table of the export).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EXPORT_TABLES } from '../../src/export/tables.js';

const quote = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** Every file under `dir`, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

async function withMemory<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Visible `*.parquet` files a reader cannot open (half-written ones would be). */
export async function unreadableParquetFiles(dir: string): Promise<string[]> {
  const files = filesUnder(dir).filter((f) => f.endsWith('.parquet'));
  return withMemory(async (connection) => {
    const bad: string[] = [];
    for (const file of files) {
      try {
        await connection.run(`SELECT count(*) FROM read_parquet(${quote(join(dir, file))})`);
      } catch {
        bad.push(file);
      }
    }
    return bad;
  });
}

export interface ExportDiff {
  /** Rows in one and not the other, per table (multiset difference both ways). */
  readonly differing: Record<string, number>;
  readonly total: number;
}

/** Compares every exported table, row for row (all columns as text), with the warehouse file. */
export async function diffExportWithWarehouse(warehousePath: string, dir: string): Promise<ExportDiff> {
  return withMemory(async (connection) => {
    await connection.run(`ATTACH ${quote(warehousePath)} AS w (READ_ONLY)`);
    const differing: Record<string, number> = {};
    for (const table of EXPORT_TABLES) {
      const columns = (
        await connection.runAndReadAll(
          `SELECT column_name FROM duckdb_columns() WHERE database_name = 'w' AND table_name = ${quote(table.name)} ORDER BY column_index`,
        )
      )
        .getRowObjectsJson()
        .map((row) => String(row.column_name));
      const select = columns.map((c) => `"${c}"::VARCHAR`).join(', ');
      const files = filesUnder(join(dir, table.name)).filter((f) => f.endsWith('.parquet'));
      const parquet =
        files.length === 0
          ? `(SELECT ${columns.map((c) => `NULL::VARCHAR AS "${c}"`).join(', ')} WHERE false)`
          : `read_parquet(${quote(join(dir, table.name, '**', '*.parquet'))}, hive_partitioning = ${table.partitionBy ? 'true' : 'false'})`;
      const [row] = (
        await connection.runAndReadAll(
          `SELECT count(*)::INTEGER AS n FROM (
             (SELECT ${select} FROM w.${table.name} EXCEPT ALL SELECT ${select} FROM ${parquet})
             UNION ALL
             (SELECT ${select} FROM ${parquet} EXCEPT ALL SELECT ${select} FROM w.${table.name}))`,
        )
      ).getRowObjectsJson();
      differing[table.name] = Number(row!.n);
    }
    return { differing, total: Object.values(differing).reduce((a, b) => a + b, 0) };
  });
}

/** All rows of every exported Parquet file as text (for searching it). */
export async function parquetText(dir: string): Promise<string> {
  const files = filesUnder(dir).filter((f) => f.endsWith('.parquet'));
  return withMemory(async (connection) => {
    let text = '';
    for (const file of files) {
      const rows = (await connection.runAndReadAll(`SELECT * FROM read_parquet(${quote(join(dir, file))})`)).getRowObjectsJson();
      text += `${JSON.stringify(rows)}\n`;
    }
    return text;
  });
}
