import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { exportParquet } from '../../src/export/index.js';
import { formatCsv } from '../../src/readside/format-csv.js';
import { formatJson } from '../../src/readside/format-json.js';
import { formatTable } from '../../src/readside/format-table.js';
import { openParquetSource, runReadOnly, type QueryResult } from '../../src/readside/index.js';
import { variableStatements } from '../../src/readside/variables.js';
import { createWarehouse, tempDir } from './fixture.js';

async function query(sql: string): Promise<QueryResult> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await runReadOnly(connection, sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('output formats', () => {
  it('table: numbers right-aligned, NULL spelled out, long cells cut, line breaks escaped', async () => {
    const result = await query(`SELECT * FROM (VALUES (1, 'a', NULL::VARCHAR), (1234, 'multi\nline', '${'x'.repeat(100)}')) t(n, s, long)`);
    const lines = formatTable(result).split('\n');
    expect(lines[0]).toBe('   n  s            long');
    expect(lines[2]).toBe('   1  a            NULL');
    expect(lines[3]).toBe(`1234  multi\\nline  ${'x'.repeat(79)}…`);
    expect(lines[4]).toBe('(2 rows)');
  });

  it('csv: only fields that need it are quoted', async () => {
    const result = await query(`SELECT 'plain' AS a, 'with,comma' AS b, 'say "hi"' AS c, 'two\nlines' AS d, NULL AS e, 1.5 AS f`);
    expect(formatCsv(result)).toBe('a,b,c,d,e,f\r\nplain,"with,comma","say ""hi""","two\nlines",,1.5\r\n');
  });

  it('json: safe integers as numbers, others as strings; non-finite doubles as strings; empty result is []', async () => {
    const result = await query(
      `SELECT 9007199254740991::BIGINT AS max_safe, -9007199254740992::BIGINT AS below, 12.345::DECIMAL(10,3) AS dec,
              'infinity'::DOUBLE AS inf, TIMESTAMPTZ '1969-12-31 23:59:59.5+00' AS before_epoch, INTERVAL 2 DAY AS iv,
              MAP {'k': 1} AS m, TIME '01:02:03' AS t`,
    );
    expect(JSON.parse(formatJson(result))).toEqual([
      {
        max_safe: 9007199254740991,
        below: '-9007199254740992',
        dec: 12.345,
        inf: 'Infinity',
        before_epoch: '1969-12-31T23:59:59.5Z',
        iv: '2 days',
        m: { k: 1 },
        t: '01:02:03',
      },
    ]);
    expect(formatJson(await query('SELECT 1 AS a WHERE false'))).toBe('[]\n');
  });
});

describe('report parameters', () => {
  it('become SET VARIABLE statements; unset ones are NULL', () => {
    expect(variableStatements({ from: '2026-01-01', venues: ['11111111-1111-4111-8111-11111111111A'], staleAfterDays: 3 })).toEqual([
      `SET VARIABLE from_date = DATE '2026-01-01'`,
      `SET VARIABLE to_date = NULL::DATE`,
      `SET VARIABLE venue_ids = ['11111111-1111-4111-8111-11111111111a']::VARCHAR[]`,
      `SET VARIABLE stale_after_days = 3::INTEGER`,
      // No freshness target set: an empty map, so the reports fall back to stale_after_days.
      `SET VARIABLE stale_targets = MAP {}::MAP(VARCHAR, INTEGER)`,
      `SET VARIABLE expected_streams = NULL::VARCHAR[]`,
      `SET VARIABLE metrics = NULL::VARCHAR[]`,
      `SET VARIABLE tz = 'UTC'`,
    ]);
    expect(variableStatements({ tz: 'Europe/Berlin' }).at(-1)).toBe(`SET VARIABLE tz = 'Europe/Berlin'`);
  });

  it('refuse what is not a date or a venue id, and a range that ends before it starts', () => {
    expect(() => variableStatements({ venues: ["x'; DROP TABLE accounts; --"] })).toThrow(/venue ids/);
    expect(() => variableStatements({ from: '2026-1-1' })).toThrow(/not a date/);
    expect(() => variableStatements({ from: '2026-02-01', to: '2026-01-01' })).toThrow(/after --to/);
    expect(() => variableStatements({ tz: "Mars/Olympus'; DROP TABLE accounts; --" })).toThrow(/IANA time zone/);
  });
});

describe('--parquet on an export of empty tables', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('still has every view, typed, with no rows', async () => {
    const warehouse = join(dir, 'warehouse.duckdb');
    await createWarehouse(warehouse);
    const report = await exportParquet({ warehouse, dir: join(dir, 'parquet') });
    expect(report.tables.find((t) => t.table === 'series_points')).toMatchObject({ written: 0, rows: 0 });
    const source = await openParquetSource(join(dir, 'parquet'));
    try {
      const result = await runReadOnly(
        source.connection,
        `SELECT (SELECT count(*) FROM series_points) AS series, (SELECT count(*) FROM current_venue_roles) AS roles,
                (SELECT typeof(ts) FROM series_points LIMIT 1) AS none,
                (SELECT data_type FROM information_schema.columns WHERE table_name = 'series_points' AND column_name = 'ts') AS ts_type`,
      );
      expect(JSON.parse(formatJson(result))).toEqual([{ series: 0, roles: 0, none: null, ts_type: 'TIMESTAMP WITH TIME ZONE' }]);
    } finally {
      await source.close();
    }
  });
});
