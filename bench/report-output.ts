/**
 * A report's time as `venue-etl report NAME --format csv` spends it, output included: the text
 * is written to a sink that keeps an order-free fingerprint of its lines (not the text: peak-hours
 * at 5,000 venues is 519 MB), and the sink's own time is taken off. And the same output made the
 * way it was before DuckDB wrote the text: every value read into JavaScript and formatted there.
 */
import { Writable } from 'node:stream';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runNamedSql, writeNamedSql, writeResult, type NamedSql, type SqlParams } from '../src/readside/index.js';

/** Counts and hashes the lines written to it; `ms` is the time it spent doing so. */
class LineFingerprint extends Writable {
  private lines = 0;
  private a = 0;
  private b = 0;
  private partial = '';
  ms = 0;

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const started = performance.now();
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.add(line);
    this.ms += performance.now() - started;
    done();
  }

  /** FNV-1a of the line, summed: the same lines in any order give the same fingerprint. */
  private add(line: string): void {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < line.length; i++) {
      h1 = Math.imul(h1 ^ line.charCodeAt(i), 0x01000193);
      h2 = Math.imul(h2 ^ line.charCodeAt(i), 0x811c9dc5);
    }
    this.lines += 1;
    this.a = (this.a + (h1 >>> 0)) % 0x100000000;
    this.b = (this.b + (h2 >>> 0)) % 0x100000000;
  }

  fingerprint(): string {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
    return `${this.lines}:${this.a}:${this.b}`;
  }
}

export interface OutputTiming {
  readonly ms: number;
  readonly rows: number;
  /** The CSV's lines, order-free. */
  readonly fingerprint: string;
}

/** `report --format csv` of `named`, as the command writes it (csv formatted by DuckDB). */
export async function timeCsvReport(connection: DuckDBConnection, named: NamedSql, params: SqlParams): Promise<OutputTiming> {
  const sink = new LineFingerprint();
  const started = performance.now();
  const rows = await writeNamedSql(connection, named, params, { out: sink, format: 'csv' });
  const ms = performance.now() - started - sink.ms;
  return { ms, rows, fingerprint: sink.fingerprint() };
}

/** The same CSV made from JavaScript values (runNamedSql, then the formatter). */
export async function timeCsvReportInJavaScript(connection: DuckDBConnection, named: NamedSql, params: SqlParams): Promise<OutputTiming> {
  const sink = new LineFingerprint();
  const started = performance.now();
  const result = await runNamedSql(connection, named, params);
  await writeResult(sink, result, 'csv');
  const ms = performance.now() - started - sink.ms;
  return { ms, rows: result.rows.length, fingerprint: sink.fingerprint() };
}
