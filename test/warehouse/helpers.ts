import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SeriesColumns, SummaryColumns } from '../../src/normalize/columns.js';
import { afterEach, beforeEach } from 'vitest';
import { openWarehouse, type SliceCommit, type Warehouse } from '../../src/warehouse/index.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A warehouse file `<dir>/<name>.duckdb` holding the slices (committed as run-1), closed again. */
export async function warehouseWithSlices(dir: string, name: string, slices: readonly SliceCommit[]): Promise<string> {
  const path = join(dir, `${name}.duckdb`);
  const warehouse = await openWarehouse(path);
  await warehouse.commitSlices('run-1', slices);
  await warehouse.close();
  return path;
}

/** Each test of the file gets a new warehouse file in a temp dir, closed and removed after it. */
export function useFreshWarehouse(set: (warehouse: Warehouse) => void): void {
  let current: Warehouse | undefined;
  let cleanup: (() => void) | undefined;
  beforeEach(async () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    current = await openWarehouse(join(temp.dir, 'w.duckdb'));
    set(current);
  });
  afterEach(async () => {
    await current?.close();
    cleanup?.();
  });
}

export const VENUE_A = '6f1c1a52-0000-4000-8000-00000000000a';
export const VENUE_B = '6f1c1a52-0000-4000-8000-00000000000b';
export const PROJECT = '6f1c1a52-0000-4000-8000-0000000000ff';

export const ms = (iso: string): number => Date.parse(iso);

/** Series columns from readable rows: [metric, granularity, ISO ts, value]. */
export function series(venueId: string, stream: string, rows: readonly (readonly [string, 'hour' | 'day', string, number | null])[]): SeriesColumns {
  return {
    venueId,
    stream,
    metric: rows.map((r) => r[0]),
    granularity: rows.map((r) => r[1]),
    tsMs: rows.map((r) => ms(r[2])),
    value: rows.map((r) => r[3]),
  };
}

/** Summary columns from readable rows: [venue, metric, start, end, value]. */
export function summaries(stream: string, rows: readonly (readonly [string, string, string, string, number | null])[]): SummaryColumns {
  return {
    stream,
    venueId: rows.map((r) => r[0]),
    metric: rows.map((r) => r[1]),
    periodStart: rows.map((r) => r[2]),
    periodEnd: rows.map((r) => r[3]),
    value: rows.map((r) => r[4]),
  };
}

export function seriesSlice(
  venueId: string,
  stream: string,
  windowFrom: string,
  windowTo: string,
  rows: Parameters<typeof series>[2],
  extra: Partial<SliceCommit> = {},
): SliceCommit {
  return { stream, scopeId: venueId, windowFrom, windowTo, series: series(venueId, stream, rows), ...extra };
}
