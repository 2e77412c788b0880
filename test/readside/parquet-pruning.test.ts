/**
 * `report --parquet` and `sql --parquet` read through views over hive-partitioned files: a filter
 * on the partition column `stream` must reach read_parquet, so DuckDB opens only that stream's
 * files (a month of one stream, not the whole export), and a report over a range opens only the
 * months it declares (src/readside/months-read.ts). What DuckDB opened is read from the EXPLAIN
 * ANALYZE plan ("Total Files Read"), never from a timing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { loadNamedSql, openParquetSource, type QuerySource } from '../../src/readside/index.js';
import { monthStatements } from '../../src/readside/months-read.js';
import { viewSql } from '../../src/readside/parquet-source.js';
import { variableStatements, type SqlParams } from '../../src/readside/variables.js';
import { EXPORT_TABLES } from '../../src/export/tables.js';
import { seededWarehouse, tempDir, utcDay } from './fixture.js';

/** The data files of one table, or of one of its streams, on disk. */
function parquetFiles(dir: string, stream?: string, months?: readonly string[]): number {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.parquet'));
  return files.filter(
    (e) =>
      (stream === undefined || e.parentPath.includes(`stream=${stream}`)) && (months === undefined || months.some((m) => e.parentPath.endsWith(`month=${m}`))),
  ).length;
}

/** Files each read_parquet of the statement opened, from its EXPLAIN ANALYZE plan. */
async function filesRead(source: QuerySource, statement: string): Promise<number[]> {
  const reader = await source.connection.runAndReadAll(`EXPLAIN ANALYZE ${statement}`);
  const plan = reader
    .getRows()
    .map((row) => String(row[1]))
    .join('\n');
  return [...plan.matchAll(/Total Files Read: (\d+)/g)].map((m) => Number(m[1]));
}

describe('--parquet skips the files a filter on the partition column rules out', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  const series = join(parquet, 'series_points');
  let source: QuerySource;

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await exportParquet({ warehouse, dir: parquet });
    source = await openParquetSource(parquet);
    for (const statement of variableStatements({})) await source.connection.run(statement);
  });
  afterAll(async () => {
    await source.close();
    cleanup();
  });

  it('the export has several streams, each in several month files', () => {
    expect(parquetFiles(series, 'venue-remarketing-history')).toBeGreaterThan(1);
    expect(parquetFiles(series)).toBeGreaterThan(parquetFiles(series, 'venue-remarketing-history'));
  });

  it('sql: WHERE stream = … reads only that stream’s files; without it, every file', async () => {
    const all = await filesRead(source, 'SELECT count(*) FROM series_points');
    const one = await filesRead(source, "SELECT count(*) FROM series_points WHERE stream = 'venue-users-history'");
    expect(all).toEqual([parquetFiles(series)]);
    expect(one).toEqual([parquetFiles(series, 'venue-users-history')]);
  });

  it('report: remarketing-trend and daily-devices read only their stream’s files', async () => {
    for (const [name, stream] of [
      ['remarketing-trend', 'venue-remarketing-history'],
      ['daily-devices', 'venue-devices-history'],
    ] as const) {
      const reads = await filesRead(source, loadNamedSql('reports', name).text);
      expect(reads.length, name).toBeGreaterThan(0);
      for (const files of reads) expect({ name, files }).toEqual({ name, files: parquetFiles(series, stream) });
    }
  });

  it('report over a range: only the months its declaration names; every month without a range', async () => {
    const report = loadNamedSql('reports', 'remarketing-trend');
    const stream = 'venue-remarketing-history';
    const run = async (params: SqlParams) => {
      for (const statement of [...variableStatements(params), ...monthStatements(report.text, params)]) await source.connection.run(statement);
      return filesRead(source, report.text);
    };
    // Its declaration: from_date - 6 days to to_date.
    const params = { from: utcDay(-3), to: utcDay(-1) };
    const months = [...new Set([utcDay(-9), params.to].map((d) => d.slice(0, 7)))];
    const ranged = await run(params);
    const whole = await run({});
    // Each scan of the view (the plan may hold more than one) opens those files only.
    expect(ranged.length).toBeGreaterThan(0);
    for (const files of ranged) expect(files).toBe(parquetFiles(series, stream, months));
    for (const files of whole) expect(files).toBe(parquetFiles(series, stream));
    // The seeded 60 days span three months or more: the range skips files, not none.
    expect(parquetFiles(series, stream, months)).toBeLessThan(parquetFiles(series, stream));
  });

  it('an s3:// lake gets the same month filter in its views', () => {
    const table = EXPORT_TABLES.find((t) => t.name === 'series_points');
    if (table === undefined) throw new Error('no series_points table');
    const file = 'series_points/stream=venue-devices-history/month=2026-01/data.parquet';
    const local = viewSql(table, [`/lake/${file}`], undefined);
    const s3 = viewSql(table, [`s3://bucket/lake/${file}`], undefined);
    expect(local).toContain("month >= getvariable('series_points_first_month')");
    expect(s3?.replace('s3://bucket/lake', '/lake')).toBe(local);
  });
});
