import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportParquet, MANIFEST_FILE, readManifest } from '../../src/export/index.js';
import { EtlError, ExitCode } from '../../src/errors/index.js';
import { openWarehouse, type SliceCommit } from '../../src/warehouse/index.js';
import { runOnFile } from './fixture.js';
import { seriesSlice, tempDir, VENUE_A, VENUE_B, warehouseWithSlices } from '../warehouse/helpers.js';

// Several writers exporting into one local folder (docs/parquet.md, "Writers and shards: one lake").

const USERS = 'venue-users-history';

function days(venue: string, from: string, count: number, base: number): SliceCommit {
  const start = Date.parse(`${from}T00:00:00Z`);
  const rows: [string, 'day', string, number][] = [];
  for (let i = 0; i < count; i++) rows.push(['users', 'day', new Date(start + i * 86_400_000).toISOString(), base + i]);
  return seriesSlice(venue, USERS, from, new Date(start + (count - 1) * 86_400_000).toISOString().slice(0, 10), rows);
}

let temp: { dir: string; cleanup: () => void };
let parquet: string;

beforeEach(() => {
  temp = tempDir();
  parquet = join(temp.dir, 'parquet');
});
afterEach(() => temp.cleanup());

const warehouseWith = (name: string, slices: readonly SliceCommit[]): Promise<string> => warehouseWithSlices(temp.dir, name, slices);

const partition = (month: string, file: string): string => join(parquet, 'series_points', `stream=${USERS}`, `month=2026-${month}`, file);

async function globRows(): Promise<number> {
  const [row] = await runOnFile(
    ':memory:',
    `SELECT count(*)::INTEGER AS n FROM read_parquet('${parquet}/series_points/**/*.parquet', hive_partitioning = true)`,
  );
  return Number(row!.n);
}

describe('writers of one local folder', () => {
  it('each writes and deletes only its own files and manifest; the default writer leaves named writers alone', async () => {
    const a = await warehouseWith('a', [days(VENUE_A, '2026-01-01', 59, 0)]);
    const b = await warehouseWith('b', [days(VENUE_B, '2026-02-01', 28, 100)]);
    const d = await warehouseWith('d', [days(VENUE_B, '2026-01-10', 5, 900)]);
    await exportParquet({ warehouse: a, dir: parquet, writer: 'tenant-a' });
    await exportParquet({ warehouse: b, dir: parquet, writer: 'tenant-b' });
    // The default writer's stray cleanup once removed every Parquet file it had not written.
    await exportParquet({ warehouse: d, dir: parquet });
    expect(existsSync(partition('02', 'data-tenant-a.parquet'))).toBe(true);
    expect(existsSync(partition('02', 'data-tenant-b.parquet'))).toBe(true);
    expect(existsSync(partition('01', 'data.parquet'))).toBe(true);
    expect(await globRows()).toBe(59 + 28 + 5);
    expect(readManifest(parquet, 'tenant-a').writerId).toBe('tenant-a');
    expect(Object.keys(readManifest(parquet, 'tenant-b').tables.series_points!.partitions)).toEqual([`stream=${USERS}/month=2026-02/data-tenant-b.parquet`]);
    expect(existsSync(join(parquet, MANIFEST_FILE))).toBe(true);

    // tenant-a's February rows are gone: its file goes, tenant-b's in the same folder stays.
    const warehouse = await openWarehouse(a);
    await warehouse.reset({ streams: [USERS], from: '2026-02-01', rows: true }, 'run-reset');
    await warehouse.close();
    expect(table(await exportParquet({ warehouse: a, dir: parquet, writer: 'tenant-a' }))).toMatchObject({ removed: 1 });
    expect(existsSync(partition('02', 'data-tenant-a.parquet'))).toBe(false);
    expect(existsSync(partition('02', 'data-tenant-b.parquet'))).toBe(true);
    expect(await globRows()).toBe(31 + 28 + 5);
  });

  it('still removes a Parquet file no writer would name so', async () => {
    const a = await warehouseWith('a', [days(VENUE_A, '2026-01-01', 5, 0)]);
    await exportParquet({ warehouse: a, dir: parquet, writer: 'tenant-a' });
    mkdirSync(join(parquet, 'series_points', `stream=${USERS}`, 'month=2026-01'), { recursive: true });
    writeFileSync(partition('01', 'part-0.parquet'), 'another tool');
    writeFileSync(partition('01', 'data-tenant-z.parquet'), 'another writer');
    await exportParquet({ warehouse: a, dir: parquet, writer: 'tenant-a', full: true });
    expect(existsSync(partition('01', 'part-0.parquet'))).toBe(false);
    expect(existsSync(partition('01', 'data-tenant-z.parquet'))).toBe(true);
  });

  it('refuses a writer whose manifest another warehouse wrote (exit 2, with the fix), unless told to take it over', async () => {
    const a = await warehouseWith('a', [days(VENUE_A, '2026-01-01', 5, 0)]);
    const c = await warehouseWith('c', [days(VENUE_B, '2026-01-01', 3, 0)]);
    await exportParquet({ warehouse: a, dir: parquet, writer: 'tenant-a' });
    const refused = await exportParquet({ warehouse: c, dir: parquet, writer: 'tenant-a' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EtlError);
    expect(refused).toMatchObject({ code: 'VENUE_EXPORT_WRITER_TAKEN', exitCode: ExitCode.usage, hint: expect.stringMatching(/parquet\.writer.*--take-over/) });
    expect(await globRows()).toBe(5);
    // Another writer name is no conflict; a missing manifest neither.
    await exportParquet({ warehouse: c, dir: parquet, writer: 'tenant-c' });
    expect(await globRows()).toBe(8);
    await exportParquet({ warehouse: c, dir: parquet, writer: 'tenant-a', takeOver: true });
    expect(await globRows()).toBe(6);
    expect(readManifest(parquet, 'tenant-a').warehouseId).toBe(readManifest(parquet, 'tenant-c').warehouseId);
  });
});

function table(report: Awaited<ReturnType<typeof exportParquet>>) {
  return report.tables.find((t) => t.table === 'series_points');
}
