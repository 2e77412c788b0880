/**
 * A report's time as `venue-etl report NAME --format csv` spends it, output included: the text
 * is written to a sink that keeps an order-free fingerprint of its lines (not the text: peak-hours
 * at 5,000 venues is 519 MB), and the sink's own time is taken off. And the same output made the
 * way it was before DuckDB wrote the text: every value read into JavaScript and formatted there.
 */
import { Writable } from 'node:stream';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runNamedSql, writeNamedSql, writeResult, type NamedSql, type SqlParams } from '../src/readside/index.js';
import { Fingerprint } from './line-fingerprint.js';

/** Fingerprints the lines written to it (line-fingerprint.ts); `ms` is the time it spent doing so. */
class LineFingerprint extends Writable {
  private readonly lines = new Fingerprint();
  private partial = '';
  ms = 0;

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const started = performance.now();
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.lines.add(line);
    this.ms += performance.now() - started;
    done();
  }

  fingerprint(): string {
    if (this.partial !== '') this.lines.add(this.partial);
    this.partial = '';
    return this.lines.toString();
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
