import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../warehouse/sql-files.js';
import type { Manifest } from './manifest.js';
import type { PartitionRef } from './fingerprint.js';

/** What the warehouse says changed since its marks were last forgotten, as the export's snapshot sees it. */
export interface ChangeState {
  readonly warehouseId: string;
  /** Undefined until an export has forgotten marks once. */
  readonly generation: string | undefined;
  /** Per table: the partitions marked (empty for an unpartitioned table that is marked). */
  readonly marked: ReadonlyMap<string, readonly PartitionRef[]>;
  /** Every seq seen, per table (forgotten per exported table). */
  readonly seqs: ReadonlyMap<string, readonly bigint[]>;
}

/** The marks in the export's snapshot; undefined when the warehouse predates them (migration 004). */
export async function readChangeState(connection: DuckDBConnection): Promise<ChangeState | undefined> {
  const exists = (await connection.runAndReadAll(sql('export/export-changes-exists.sql'))).getRowObjectsJson()[0];
  if (Number(exists?.n) !== 2) return undefined;
  const meta = (await connection.runAndReadAll(sql('export/warehouse-meta.sql'))).getRowObjectsJson()[0];
  if (meta === undefined || typeof meta.warehouse_id !== 'string') return undefined;
  const marked = new Map<string, PartitionRef[]>();
  const seen = new Map<string, Set<string>>();
  const seqs = new Map<string, bigint[]>();
  for (const row of (await connection.runAndReadAll(sql('export/changes-read.sql'))).getRowObjectsJson()) {
    const table = String(row.table_name);
    seqs.set(table, [...(seqs.get(table) ?? []), BigInt(String(row.seq))]);
    const refs = marked.get(table) ?? [];
    marked.set(table, refs);
    if (typeof row.stream !== 'string' || typeof row.month !== 'string') continue;
    const keys = seen.get(table) ?? new Set<string>();
    seen.set(table, keys);
    const key = `${row.stream}/${row.month}`;
    if (keys.has(key)) continue;
    keys.add(key);
    refs.push({ stream: row.stream, month: row.month });
  }
  return { warehouseId: meta.warehouse_id, generation: typeof meta.generation === 'string' ? meta.generation : undefined, marked, seqs };
}

/**
 * Why the export must read every partition instead of the marked ones; undefined when the
 * marks can be trusted: the manifest follows this warehouse at its current generation.
 */
export function whyFull(manifest: Manifest, state: ChangeState | undefined, forced: boolean): string | undefined {
  if (forced) return 'asked for (--full)';
  if (state === undefined) return 'the warehouse records no changes (a schema older than this venue-etl: open it for writing once)';
  if (Object.keys(manifest.tables).length === 0) return 'no manifest yet';
  if (manifest.changes === undefined) return 'the manifest does not say which warehouse state it follows (an older venue-etl, or an earlier full export)';
  if (manifest.changes.warehouseId !== state.warehouseId) return 'the manifest was written for another warehouse';
  if (manifest.changes.generation !== state.generation)
    return 'the warehouse changed generation since the manifest (another folder was exported from it, or the file was restored from a copy)';
  return undefined;
}

/** Sorted seqs as inclusive ranges: marks of one export are mostly consecutive. */
export function seqRanges(seqs: readonly bigint[]): [bigint, bigint][] {
  const sorted = [...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ranges: [bigint, bigint][] = [];
  for (const seq of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && seq === last[1] + 1n) last[1] = seq;
    else if (!last || seq > last[1]) ranges.push([seq, seq]);
  }
  return ranges;
}
