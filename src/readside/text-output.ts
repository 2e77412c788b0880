import {
  StatementType,
  type DuckDBBlobVector,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBStructValue,
} from '@duckdb/node-api';
import { sql } from '../warehouse/sql-files.js';
import { csvField, csvRecord } from './format-csv.js';
import { jsonObject } from './format-json.js';
import { writePiece } from '../infra/write-piece.js';
import { lineText, lineWritten, rowStruct, type TextColumn, type TextFormat } from './text-columns.js';

/** The statement's columns, from its plan. */
function columnsOf(prepared: DuckDBPreparedStatement): TextColumn[] {
  const columns: TextColumn[] = [];
  for (let index = 0; index < prepared.columnCount; index++) columns.push({ name: prepared.columnName(index), type: prepared.columnType(index) });
  return columns;
}

/**
 * One line of text per row of the statement, in its order (a projection keeps the order of its
 * subquery: "Order Preservation" in DuckDB's documentation), as UTF-8 bytes; for a row DuckDB
 * does not write as JavaScript does, no line but the row's values instead. JSON lines carry the
 * separator before them, so the last needs no lookahead.
 */
function linesSql(statement: string, columns: readonly TextColumn[], line: string, format: TextFormat): string {
  const text = format === 'json' ? `',' || chr(10) || '  ' || ${line}` : `${line} || chr(13) || chr(10)`;
  const written = lineWritten(columns);
  return `SELECT CASE WHEN ${written} THEN encode(${text}) END AS line,
       CASE WHEN NOT (${written}) THEN ${rowStruct(columns)} END AS row
FROM (
${withoutEnd(statement)}
) AS r`;
}

/**
 * The statement without what ends it — blanks, semicolons and line comments — to be read as a
 * subquery. A `--` ends the last line when the text before it on that line holds an even number
 * of each quote and the text after it none: it is outside every string and quoted name (a string
 * begun on an earlier line must close on this one, which puts a quote on one side or the other).
 * Whatever else is left after the statement fails to parse as a subquery, and JavaScript writes
 * the rows.
 */
function withoutEnd(statement: string): string {
  let text = statement;
  for (let before = ''; text !== before; ) {
    before = text;
    text = withoutLineComment(text.replace(/[\s;]+$/, ''));
  }
  return text;
}

function withoutLineComment(text: string): string {
  const start = text.lastIndexOf('\n') + 1;
  const line = text.slice(start);
  const even = (part: string, quote: string): boolean => part.split(quote).length % 2 === 1;
  for (let at = line.indexOf('--'); at >= 0; at = line.indexOf('--', at + 1)) {
    const code = line.slice(0, at);
    if (!/['"]/.test(line.slice(at)) && even(code, "'") && even(code, '"')) return text.slice(0, start) + code;
  }
  return text;
}

/**
 * Writes the rows of `statement` — the last statement of a read, prepared as `prepared` in the
 * read's transaction — to `out` as CSV (with its header) or JSON, formatted by DuckDB: the same
 * text as src/readside/format-csv.ts and format-json.ts give, without making a JavaScript value
 * of each cell first, which was most of a big report's time (docs/commands.md, "Big answers").
 * Returns the number of rows; undefined, before anything runs or is written, when the statement
 * is not a plain SELECT, has a column DuckDB does not write here (text-columns.ts) or does not
 * bind as a subquery: the caller then writes the result by JavaScript.
 */
export async function writeText(
  connection: DuckDBConnection,
  prepared: DuckDBPreparedStatement,
  statement: string,
  format: TextFormat,
  out: NodeJS.WritableStream,
  failed: (error: unknown) => Error,
): Promise<number | undefined> {
  if (prepared.statementType !== StatementType.SELECT) return undefined;
  const columns = columnsOf(prepared);
  const line = lineText(columns, format);
  if (line === undefined) return undefined;
  const result = await startLines(connection, linesSql(statement, columns, line, format), failed);
  if (result === undefined) return undefined;
  if (format === 'csv') await writePiece(out, `${columns.map((c) => csvField(c.name)).join(',')}\r\n`);
  let rows = 0;
  for (let chunk = await next(result, failed); chunk !== null && chunk.rowCount > 0; chunk = await next(result, failed)) {
    const bytes = chunkBytes(chunk, columns, format);
    // The first JSON line's separator opens the array instead: ",\n  {" -> "[\n  {".
    if (format === 'json' && rows === 0) bytes[0] = 0x5b;
    await writePiece(out, bytes);
    rows += chunk.rowCount;
  }
  if (format === 'json') await writePiece(out, rows === 0 ? '[]\n' : '\n]\n');
  return rows;
}

/** A chunk's lines as one buffer: DuckDB's bytes, or JavaScript's text of a row it left. */
function chunkBytes(chunk: DuckDBDataChunk, columns: readonly TextColumn[], format: TextFormat): Buffer {
  const lines = chunk.getColumnVector(0) as DuckDBBlobVector;
  const parts: Uint8Array[] = new Array(chunk.rowCount);
  for (let index = 0; index < chunk.rowCount; index++) {
    // Bytes of 12 or fewer are a view into the chunk; Buffer.concat copies them all.
    parts[index] = lines.getItemBytes(index) ?? Buffer.from(javascriptLine(chunk, index, columns, format));
  }
  return Buffer.concat(parts);
}

function javascriptLine(chunk: DuckDBDataChunk, index: number, columns: readonly TextColumn[], format: TextFormat): string {
  const struct = chunk.getColumnVector(1).getItem(index) as DuckDBStructValue;
  const row = columns.map((column) => struct.entries[column.name] ?? null);
  return format === 'csv' ? csvRecord(row, columns) : `,\n  ${JSON.stringify(jsonObject(row, columns))}`;
}

/** Prepares and starts the query; undefined when the statement does not bind as a subquery. */
async function startLines(connection: DuckDBConnection, query: string, failed: (error: unknown) => Error): Promise<DuckDBResult | undefined> {
  try {
    await connection.run(sql('readside/text-macros.sql'));
    return await (await connection.prepare(query)).stream();
  } catch (error) {
    if (error instanceof Error && /^(Binder|Parser) Error/.test(error.message)) return undefined;
    throw failed(error);
  }
}

async function next(result: DuckDBResult, failed: (error: unknown) => Error): Promise<DuckDBDataChunk | null> {
  try {
    return await result.fetchChunk();
  } catch (error) {
    throw failed(error);
  }
}
