import { Writable } from 'node:stream';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { JsonValue } from './values.js';
import { writeNamedSql } from './run-named.js';
import type { NamedSql } from './named-sql.js';
import type { SqlParams } from './variables.js';

/**
 * Collects `--format json` output as objects, a line at a time: the array holds one object per
 * line ("  {…}," between "[" and "]"), so no line is ever longer than a row, and the whole text is
 * never one string (V8 caps a string at 2^29 characters; a year of 5,000 venues' daily-devices is
 * 417 MB of JSON).
 */
class JsonLines extends Writable {
  readonly objects: Record<string, JsonValue>[] = [];
  private partial = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const lines = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = lines.pop() ?? '';
    try {
      for (const line of lines) this.add(line);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _final(done: (error?: Error | null) => void): void {
    this.add(this.partial);
    done();
  }

  private add(line: string): void {
    const object = line.trim().replace(/,$/, '');
    if (object.startsWith('{')) this.objects.push(JSON.parse(object) as Record<string, JsonValue>);
  }
}

/**
 * The rows of a report or check as objects keyed by column, with the values `--format json`
 * gives (src/readside/values.ts): written by DuckDB as text and parsed, which at 365,000 rows
 * took 1.0 s against 1.9 s for making a JavaScript value of every cell (daily-devices over 1,000
 * venues × 1 year; docs/dashboard.md, "Size and time").
 */
export async function namedSqlObjects(connection: DuckDBConnection, named: NamedSql, params: SqlParams): Promise<Record<string, JsonValue>[]> {
  const sink = new JsonLines();
  await writeNamedSql(connection, named, params, { out: sink, format: 'json' });
  await new Promise<void>((resolve, reject) => sink.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return sink.objects;
}
