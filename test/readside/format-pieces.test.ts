/**
 * Results too big to print as one string: the formatters yield pieces of at most PIECE_ROWS rows
 * (src/readside/query-result.ts), `writeResult` writes them one by one, and a text table of
 * hundreds of thousands of rows lays itself out without spreading every cell into one call
 * (Math.max(...cells) overflowed the stack at 1.8M rows: `report daily-devices` over a year of
 * 5,000 venues failed with VENUE_ETL_INTERNAL).
 */
import { PassThrough } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { formatResult, runReadOnly, writeResult, type QueryResult } from '../../src/readside/index.js';
import { resultPieces } from '../../src/readside/format.js';
import { PIECE_ROWS } from '../../src/readside/query-result.js';

const ROWS = 250_000;

async function bigResult(): Promise<QueryResult> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await runReadOnly(
      connection,
      `SELECT i AS n, 'venue ' || (i % 97) AS venue, DATE '2026-01-01' + (i % 365)::INTEGER AS day,
              CASE WHEN i % 11 = 0 THEN NULL ELSE i / 7 END AS ratio, CASE WHEN i = 4321 THEN 'the widest cell of all' END AS note
       FROM range(${ROWS}) t(i) ORDER BY i`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Everything a stream received, with the number of writes. */
async function written(result: QueryResult, format: 'table' | 'csv' | 'json', width?: number): Promise<{ text: string; writes: number }> {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  let writes = 0;
  const write = out.write.bind(out);
  out.write = ((chunk: string) => {
    writes += 1;
    return write(chunk);
  }) as typeof out.write;
  await writeResult(out, result, format, width);
  out.end();
  return { text: chunks.join(''), writes };
}

describe(`a result of ${ROWS.toLocaleString('en')} rows`, async () => {
  const result = await bigResult();

  it('is written in pieces of at most PIECE_ROWS rows that add up to the whole text, in every format', async () => {
    for (const format of ['csv', 'json', 'table'] as const) {
      const { text, writes } = await written(result, format);
      expect(text, format).toBe(formatResult(result, format));
      // Header and closing pieces aside, one write per PIECE_ROWS rows (5,000 for the table).
      expect(writes, format).toBeGreaterThanOrEqual(Math.ceil(ROWS / PIECE_ROWS));
      for (const piece of resultPieces(result, format)) expect(piece.split('\n').length, format).toBeLessThanOrEqual(PIECE_ROWS + 3);
    }
  });

  it('as a table, every line is as wide as the widest cell asks, at any screen width', async () => {
    for (const width of [undefined, 120]) {
      const lines = formatResult(result, 'table', width).split('\n');
      expect(lines.at(-2)).toBe(`(${ROWS.toLocaleString('en').replaceAll(',', '')} rows)`);
      // The widest ratio, worked out here from the query's own values.
      let ratio = 'ratio'.length;
      for (let i = 0; i < ROWS; i++) if (i % 11 !== 0) ratio = Math.max(ratio, String(i / 7).length);
      const rule = lines[1]!;
      expect(rule.split('  ').map((dashes) => dashes.length)).toEqual([6, 8, 10, ratio, 22]);
      expect(lines.find((line) => line.includes('the widest cell of all'))).toMatch(
        /^ +4321 {2}venue 53 {2}2026-11-03 +617\.2857142857143 {2}the widest cell of all$/,
      );
    }
  });
});
