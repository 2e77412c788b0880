/**
 * csv and json written by DuckDB (src/readside/text-output.ts, sql/readside/text-macros.sql) are
 * the text JavaScript writes of the same rows (src/readside/values.ts, format-csv.ts,
 * format-json.ts), character for character: on seeded random values of every type it writes, in
 * the statement's order, with the rows it leaves to JavaScript (days and instants outside the
 * years 1000-9999) in their place, and — for a result it does not write at all — by handing it
 * back to JavaScript before anything is written.
 */
import { PassThrough } from 'node:stream';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatResult, runReadOnly, writeReadOnly } from '../../src/readside/index.js';
import { lastStatementText } from '../../src/readside/statement-text.js';
import { writeText } from '../../src/readside/text-output.js';
import { seededRandom } from '../../bench/seeded-random.js';

const FORMATS = ['csv', 'json'] as const;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/** What writeReadOnly writes, and the text of the same rows read into JavaScript. */
async function bothTexts(sql: string, format: 'csv' | 'json'): Promise<{ duckdb: string; javascript: string; rows: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const rows = await writeReadOnly(connection, sql, { out, format });
  out.end();
  return { duckdb: Buffer.concat(chunks).toString('utf8'), javascript: formatResult(await runReadOnly(connection, sql), format), rows };
}

/** Whether DuckDB writes the last statement's text itself (rather than handing it back). */
async function writtenByDuckDb(sql: string, format: 'csv' | 'json'): Promise<boolean> {
  const statements = await connection.extractStatements(sql);
  await connection.run('BEGIN TRANSACTION READ ONLY');
  try {
    for (let index = 0; index < statements.count - 1; index++) await (await statements.prepare(index)).run();
    const text = await lastStatementText(connection, sql, statements.count);
    if (text === undefined) return false;
    const sink = new PassThrough();
    sink.resume();
    const rows = await writeText(connection, await statements.prepare(statements.count - 1), text, format, sink, (error) => error as Error);
    return rows !== undefined;
  } finally {
    await connection.run('ROLLBACK');
  }
}

const random = seededRandom(3707);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** A double from random bits: every exponent, subnormals, integers, NaN and infinities. */
function randomDouble(): number {
  const bytes = new DataView(new ArrayBuffer(8));
  bytes.setUint32(0, Math.floor(random() * 2 ** 32));
  bytes.setUint32(4, Math.floor(random() * 2 ** 32));
  const roll = random();
  if (roll < 0.3) return bytes.getFloat64(0);
  if (roll < 0.5) return Math.round((random() - 0.5) * 10 ** Math.floor(random() * 25));
  if (roll < 0.7) return Number(((random() - 0.5) * 10 ** Math.floor(random() * 12 - 4)).toFixed(Math.floor(random() * 6)));
  return (random() - 0.5) * 10 ** Math.floor(random() * 60 - 30);
}

/** A SQL literal of a double, exact (17 significant digits round-trip). */
function doubleSql(value: number): string {
  if (Number.isNaN(value)) return `'nan'::DOUBLE`;
  if (!Number.isFinite(value)) return `'${value > 0 ? 'inf' : '-inf'}'::DOUBLE`;
  return `${value.toPrecision(17)}::DOUBLE`;
}

const CHARACTERS = [
  'a',
  'Z',
  '0',
  ' ',
  ',',
  '"',
  "'",
  '\\',
  '/',
  '\r',
  '\n',
  '\t',
  '\b',
  '\f',
  '\u0001',
  '\u001f',
  '\u007f',
  'é',
  'ß',
  '€',
  '\u2028',
  '\ufeff',
  '😀',
  '名',
];

/** Not starting with U+FEFF: the JavaScript path loses that one (a test below). */
function randomText(): string {
  let text = '';
  for (let length = Math.floor(random() * 12); length > 0; length--) text += pick(CHARACTERS);
  return text.replace(/^\ufeff+/, '');
}

function textSql(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function randomBigint(): bigint {
  const magnitude = BigInt(Math.floor(random() * 2 ** 31)) * BigInt(Math.floor(random() * 2 ** 31));
  return random() < 0.5 ? -magnitude : magnitude;
}

/** A row of random values (a tenth NULL), as a SQL VALUES tuple. */
function randomRow(): string {
  const maybe = (sql: string): string => (random() < 0.1 ? 'NULL' : sql);
  // Days and instants of years from about -200 to 10,700: JavaScript writes the rows with those
  // outside 1000-9999 (and its text of them is its own: "+010000-01").
  const days = Math.floor(random() * 4_000_000) - 800_000;
  const micros = BigInt(Math.floor(random() * 3.5e11) - 7e10) * 1_000_000n + (random() < 0.5 ? 0n : BigInt(Math.floor(random() * 1e6)));
  return `(${[
    maybe(doubleSql(randomDouble())),
    maybe(`${Math.fround((random() - 0.5) * 10 ** Math.floor(random() * 20 - 8))}::FLOAT`),
    maybe(`${randomBigint()}::BIGINT`),
    maybe(`${randomBigint() * BigInt(Math.floor(random() * 2 ** 31))}::HUGEINT`),
    maybe(`${Math.floor((random() - 0.5) * 2 ** 31)}::INTEGER`),
    maybe(textSql(randomText())),
    maybe(random() < 0.5 ? 'true' : 'false'),
    maybe(`gen_random_uuid()`),
    maybe(`(DATE '1970-01-01' + ${days})`),
    maybe(`make_timestamp(${micros}::BIGINT)`),
    maybe(`make_timestamp(${micros + 123_456n}::BIGINT)::TIMESTAMPTZ`),
  ].join(', ')})`;
}

const COLUMNS = 'x_double, x_float, x_bigint, x_hugeint, x_integer, x_text, x_boolean, x_uuid, x_date, x_timestamp, x_timestamptz';

describe('csv and json written by DuckDB', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: 4000 }, randomRow);
    await connection.run(`CREATE TABLE random_values AS SELECT * FROM (VALUES ${rows.join(',\n')}) AS t(${COLUMNS})`);
  });

  it.each(FORMATS)('%s of 4,000 seeded random rows of every type it writes is the JavaScript text, and DuckDB wrote it', async (format) => {
    const sql = `SELECT * FROM random_values`;
    expect(await writtenByDuckDb(sql, format)).toBe(true);
    const { duckdb, javascript, rows } = await bothTexts(sql, format);
    expect(rows).toBe(4000);
    // Both ways are tried: rows DuckDB writes, and rows it leaves to JavaScript (a day or instant outside 1000-9999).
    const left = await connection.runAndReadAll(
      `SELECT count(*)::INTEGER FROM random_values WHERE year(x_date) NOT BETWEEN 1000 AND 9999 OR year(x_timestamp) NOT BETWEEN 1000 AND 9999`,
    );
    expect(left.getRows()[0]?.[0]).toBeGreaterThan(500);
    expect(left.getRows()[0]?.[0]).toBeLessThan(3000);
    expect(duckdb).toBe(javascript);
  });

  it.each(FORMATS)('%s of doubles where JavaScript changes notation is the JavaScript text', async (format) => {
    const edges = [1e21, 999999999999999900000, 1e21 + 2 ** 17, 2 ** 53, 2 ** 53 + 2, 2 ** 53 - 1, -(2 ** 53), 1e-7, 1e-7 - 2 ** -76, 1e-6, 1.5e-6, 5e-324];
    const more = [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.MAX_VALUE,
      -0,
      0.1 + 0.2,
      123e-20,
      1 / 3,
      100,
      -1e300,
      4.35,
      0.000001234,
    ];
    const values = [...edges, ...more].map((value) => `(${doubleSql(value)})`).join(', ');
    const sql = `SELECT x FROM (VALUES ${values}) AS t(x)`;
    expect(await writtenByDuckDb(sql, format)).toBe(true);
    const { duckdb, javascript } = await bothTexts(sql, format);
    expect(duckdb).toBe(javascript);
  });

  it.each(FORMATS)('%s keeps the statement order across chunks (300,000 rows, 2 threads)', async (format) => {
    const sql = `SELECT i, hash(i) % 1000 AS bucket, 'row ' || i AS label FROM range(300000) t(i) ORDER BY bucket DESC, label`;
    expect(await writtenByDuckDb(sql, format)).toBe(true);
    const { duckdb, javascript, rows } = await bothTexts(sql, format);
    expect(rows).toBe(300_000);
    expect(duckdb).toBe(javascript);
  });

  it.each(FORMATS)('%s of no rows is the JavaScript text', async (format) => {
    const { duckdb, javascript, rows } = await bothTexts(`SELECT 1 AS n, 'x' AS t WHERE false`, format);
    expect(rows).toBe(0);
    expect(duckdb).toBe(javascript);
  });

  it('finds the last statement of a text whose comments and strings hold semicolons', async () => {
    const sql = `SET VARIABLE a = 'x;y'; -- a comment; with a semicolon
      SELECT getvariable('a') AS a, /* ; */ 'b;c' AS b;  -- the end;`;
    expect(await lastStatementText(connection, sql, 2)).toContain(`SELECT getvariable('a')`);
    expect(await writtenByDuckDb(sql, 'csv')).toBe(true);
    const { duckdb, javascript } = await bothTexts(sql, 'csv');
    expect(duckdb).toBe('a,b\r\nx;y,b;c\r\n');
    expect(duckdb).toBe(javascript);
  });

  it.each(FORMATS)('%s keeps a U+FEFF that starts a value, as the JavaScript path does not (its decoder drops it)', async (format) => {
    const sql = `SELECT chr(65279) || 'a' AS t`;
    expect(await writtenByDuckDb(sql, format)).toBe(true);
    const { duckdb, javascript } = await bothTexts(sql, format);
    expect(duckdb).toBe(format === 'csv' ? 't\r\n\ufeffa\r\n' : '[\n  {"t":"\ufeffa"}\n]\n');
    expect(javascript).toBe(duckdb.replace('\ufeff', ''));
  });

  const leftToJavaScript: [string, string][] = [
    ['a day before the year 1000', `SELECT DATE '0999-12-31' AS d, 1 AS n UNION ALL SELECT DATE '2026-01-01', 2 ORDER BY n`],
    ['an infinite instant', `SELECT 'infinity'::TIMESTAMP AS t, 1 AS n UNION ALL SELECT TIMESTAMP '2026-01-01 10:00:00.5', 2 ORDER BY n`],
    ['an instant after 9999', `SELECT TIMESTAMPTZ '10000-01-01 00:00:00+00' AS t, 1 AS n UNION ALL SELECT NULL, 2 ORDER BY n`],
  ];
  it.each(leftToJavaScript)('writes the row of %s as JavaScript does, the others as DuckDB does', async (_what, sql) => {
    for (const format of FORMATS) {
      expect(await writtenByDuckDb(sql, format), format).toBe(true);
      const { duckdb, javascript, rows } = await bothTexts(sql, format);
      expect(rows, format).toBe(2);
      expect(duckdb, format).toBe(javascript);
    }
  });

  const handedBack: [string, string][] = [
    ['a DECIMAL', `SELECT 12.30::DECIMAL(6,2) AS d`],
    ['a list', `SELECT [1, 2] AS l`],
    ['a JSON column', `SELECT '{"a": 1}'::JSON AS j`],
    ['duplicate column names', `SELECT 1 AS a, 2 AS a`],
    ['a column named like an index', `SELECT 1 AS "7", 2 AS b`],
    ['a statement that is not a SELECT', `PRAGMA version`],
    ['a block comment after the end', `SELECT 1 AS n; /* the end */`],
  ];
  it.each(handedBack)('hands %s back to JavaScript, having written nothing, and the output is the same', async (_what, sql) => {
    for (const format of FORMATS) {
      expect(await writtenByDuckDb(sql, format), format).toBe(false);
      const { duckdb, javascript } = await bothTexts(sql, format);
      expect(duckdb, format).toBe(javascript);
    }
  });

  it('fails a statement that fails as VENUE_SQL_FAILED', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await expect(
      writeReadOnly(connection, `SELECT CASE WHEN i = 5 THEN error('the fifth row') ELSE i END AS n FROM range(10) t(i)`, { out, format: 'csv' }),
    ).rejects.toMatchObject({
      code: 'VENUE_SQL_FAILED',
      message: expect.stringContaining('the fifth row'),
    });
    // The rows before the failing one may have been written (the output is a stream), but never past it.
    expect(Buffer.concat(chunks).toString('utf8')).not.toContain('\r\n5\r\n');
  });

  it('leaves no macro behind: they are temporary, in the read-only transaction it rolls back', async () => {
    const sink = new PassThrough();
    sink.resume();
    await writeReadOnly(connection, `SELECT 1.5::DOUBLE AS x`, { out: sink, format: 'json' });
    const left = await connection.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_functions() WHERE function_name LIKE 'venue_etl_%'`);
    expect(left.getRows()[0]?.[0]).toBe(0);
  });
});
