import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportParquet, MANIFEST_FILE, type ExportReport, type Manifest } from '../../src/export/index.js';
import { LocalFolderStore } from '../../src/export/local-store.js';
import type { ExportStore } from '../../src/export/store.js';
import { openWarehouse, type SliceCommit, type Warehouse } from '../../src/warehouse/index.js';
import { builtModule, REPO_ROOT } from '../dist.js';
import { runOnFile } from './fixture.js';
import { seriesSlice, tempDir, VENUE_A, VENUE_B } from '../warehouse/helpers.js';

// Dirty-partition tracking: every commit marks the partitions it touched in its own
// transaction, and the export reads only those (docs/parquet.md).

const USERS = 'venue-users-history';
const DEVICES = 'venue-devices-history';

/** Day rows of one stream and venue from `from` for `days` days, value = base + day index. */
function days(venue: string, stream: string, from: string, count: number, base: number, extra: Partial<SliceCommit> = {}): SliceCommit {
  const start = Date.parse(`${from}T00:00:00Z`);
  const rows: [string, 'day', string, number][] = [];
  for (let i = 0; i < count; i++) rows.push(['users', 'day', new Date(start + i * 86_400_000).toISOString(), base + i]);
  const to = new Date(start + (count - 1) * 86_400_000).toISOString().slice(0, 10);
  return seriesSlice(venue, stream, from, to, rows, extra);
}

function table(report: ExportReport, name: string) {
  const found = report.tables.find((t) => t.table === name);
  if (!found) throw new Error(`no report for ${name}`);
  return found;
}

/** The value stored in the exported file for one venue, stream and day. */
async function exportedValue(warehouse: string, parquet: string, stream: string, venue: string, day: string): Promise<unknown> {
  const [row] = await runOnFile(
    warehouse,
    `SELECT value FROM read_parquet('${parquet}/series_points/stream=${stream}/**/*.parquet')
      WHERE venue_id = '${venue}' AND ts = TIMESTAMPTZ '${day} 00:00:00+00'`,
  );
  return row?.value;
}

/** Every data file below `dir`: its sha256 and mtime, by path. */
function fileStates(dir: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.parquet')) continue;
    const file = join(entry.parentPath, entry.name);
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
    states.set(file.slice(dir.length + 1), `${hash}@${statSync(file).mtimeMs}`);
  }
  return states;
}

/** The local folder store, whose `put` fails after `okPuts` files: an export that dies midway. */
function failingStore(dir: string, okPuts: number): ExportStore {
  const local = LocalFolderStore.open(dir);
  let puts = 0;
  return {
    location: local.location,
    writer: local.writer,
    manifestLocation: local.manifestLocation,
    lock: (logger) => local.lock(logger),
    readManifest: () => local.readManifest(),
    writeManifest: (text) => local.writeManifest(text),
    listTable: (table, partitioned, logger) => local.listTable(table, partitioned, logger),
    stagingFile: (table, key) => local.stagingFile(table, key),
    put: (table, key, staged) => {
      if (++puts > okPuts) return Promise.reject(new Error('connection reset while uploading'));
      return local.put(table, key, staged);
    },
    delete: (table, key) => local.delete(table, key),
    assertIntact: () => local.assertIntact(),
  };
}

async function marks(path: string): Promise<number> {
  const [row] = await runOnFile(path, 'SELECT count(*)::INTEGER AS n FROM export_changes');
  return Number(row.n);
}

describe('dirty-partition tracking', () => {
  let temp: ReturnType<typeof tempDir>;
  let path: string;
  let parquet: string;

  beforeEach(async () => {
    temp = tempDir();
    path = join(temp.dir, 'w.duckdb');
    parquet = join(temp.dir, 'parquet');
    // Jan to Mar 2026 for two streams and two venues: 6 series partitions.
    const warehouse = await openWarehouse(path);
    await warehouse.commitSlices('run-1', [
      days(VENUE_A, USERS, '2026-01-01', 90, 0),
      days(VENUE_B, USERS, '2026-01-01', 90, 1000),
      days(VENUE_A, DEVICES, '2026-01-01', 90, 2000),
    ]);
    await warehouse.close();
    const first = await exportParquet({ warehouse: path, dir: parquet });
    expect(first.mode).toBe('full');
    expect(first.changesForgotten).toBe(true);
    expect(await marks(path)).toBe(0);
  });
  afterEach(() => temp.cleanup());

  it('an export after a one-day commit reads and writes only that partition (and the bookkeeping tables)', async () => {
    const warehouse = await openWarehouse(path);
    await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-02-10', 1, 500, { cursor: { mode: 'advance', date: '2026-02-10' } })]);
    await warehouse.close();
    const before = fileStates(parquet);

    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 1, written: 1, unchanged: 5, removed: 0 });
    // Every other file has the same bytes and was not touched (same mtime).
    const after = fileStates(parquet);
    const rewritten = [...after].filter(([file, state]) => before.get(file) !== state).map(([file]) => file);
    expect(rewritten.sort()).toEqual([`series_points/stream=${USERS}/month=2026-02/data.parquet`, 'sync_cursors/data.parquet']);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(table(report, 'sync_cursors')).toMatchObject({ checked: 1, written: 1 });
    expect(table(report, 'accounts')).toMatchObject({ checked: 0, written: 0 });
    expect(await exportedValue(path, parquet, USERS, VENUE_A, '2026-02-10')).toBe(500);
    expect(await marks(path)).toBe(0);
  });

  it('a process killed between its commit and the export loses no change: the next export writes it', async () => {
    const change = days(VENUE_B, USERS, '2026-03-05', 1, 777);
    // The child commits and is killed at once: no export, no close, no checkpoint.
    const script = `
      const { openWarehouse } = await import(${JSON.stringify(builtModule('warehouse/index.js'))});
      const warehouse = await openWarehouse(${JSON.stringify(path)});
      await warehouse.commitSlices('run-killed', [${JSON.stringify(change)}]);
      process.stdout.write('committed\\n');
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, sig) => resolve(sig)));
    expect({ signal, stdout, stderr }).toEqual({ signal: 'SIGKILL', stdout: 'committed\n', stderr: '' });

    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 1, written: 1 });
    expect(await exportedValue(path, parquet, USERS, VENUE_B, '2026-03-05')).toBe(777);
  });

  it('a process killed just before COMMIT leaves neither the rows nor their marks (one transaction)', async () => {
    const change = days(VENUE_B, USERS, '2026-03-06', 1, 606);
    // The hook pauses every write transaction right before COMMIT, after the marks are written.
    const script = `
      const { openWarehouse } = await import(${JSON.stringify(builtModule('warehouse/index.js'))});
      const warehouse = await openWarehouse(${JSON.stringify(path)});
      process.stdout.write('committing\\n');
      await warehouse.commitSlices('run-killed', [${JSON.stringify(change)}]);
      process.stdout.write('committed\\n');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS: '60000' },
    });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => {
      if (stdout.includes('committing') && data.toString().includes('paused before commit')) child.kill('SIGKILL');
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, sig) => resolve(sig)));
    expect({ signal, stdout }).toEqual({ signal: 'SIGKILL', stdout: 'committing\n' });

    expect(await marks(path)).toBe(0);
    const [row] = await runOnFile(path, `SELECT count(*)::INTEGER AS n FROM series_points WHERE value = 606`);
    expect(Number(row.n)).toBe(0);
  });

  it('an export stopped midway keeps the marks it did not finish; the next export writes them', async () => {
    const warehouse = await openWarehouse(path);
    await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-01-15', 1, 111), days(VENUE_A, DEVICES, '2026-03-15', 1, 333)]);
    await warehouse.close();
    const before = await marks(path);
    expect(before).toBeGreaterThanOrEqual(2);

    const stop = new AbortController();
    await expect(
      exportParquet({ warehouse: path, dir: parquet, signal: stop.signal, progress: () => ({ fileWritten: () => stop.abort(), stop: () => undefined }) }),
    ).rejects.toMatchObject({ code: 'VENUE_EXPORT_ABORTED' });
    expect(await marks(path)).toBe(before);

    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 2 });
    expect(await exportedValue(path, parquet, USERS, VENUE_A, '2026-01-15')).toBe(111);
    expect(await exportedValue(path, parquet, DEVICES, VENUE_A, '2026-03-15')).toBe(333);
    expect(await marks(path)).toBe(0);
  });

  it('an export whose store fails after some files keeps every mark; the next export finishes the work', async () => {
    const warehouse = await openWarehouse(path);
    await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-01-16', 1, 116), days(VENUE_A, DEVICES, '2026-03-16', 1, 316)]);
    await warehouse.close();
    const before = await marks(path);

    await expect(exportParquet({ warehouse: path, dir: parquet, store: failingStore(parquet, 1) })).rejects.toThrow(/connection reset/);
    expect(await marks(path)).toBe(before);

    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 2 });
    expect(await exportedValue(path, parquet, USERS, VENUE_A, '2026-01-16')).toBe(116);
    expect(await exportedValue(path, parquet, DEVICES, VENUE_A, '2026-03-16')).toBe(316);
    expect(await marks(path)).toBe(0);
  });

  it('a commit made while an export runs keeps its marks and is exported the next time', async () => {
    const warehouse = await openWarehouse(path);
    try {
      await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-01-20', 1, 120)]);
      let during: Promise<unknown> | undefined;
      // The progress callback runs after every table is planned, inside the export's snapshot.
      const report = await exportParquet({
        warehouse,
        shareWithWriters: true,
        dir: parquet,
        progress: () => {
          during = warehouse.commitSlices('run-3', [days(VENUE_B, USERS, '2026-02-20', 1, 220)]);
          return { fileWritten: () => undefined, stop: () => undefined };
        },
      });
      await during;
      expect(table(report, 'series_points')).toMatchObject({ checked: 1, written: 1 });
      expect(report.changesForgotten).toBe(true);
      expect(await exportedValue(path, parquet, USERS, VENUE_B, '2026-02-20')).toBe(1000 + 50);
      const left = await warehouse.query<{ stream: string; month: string }>(`SELECT stream, month FROM export_changes WHERE table_name = 'series_points'`);
      expect(left).toEqual([{ stream: USERS, month: '2026-02' }]);

      const next = await exportParquet({ warehouse, shareWithWriters: true, dir: parquet });
      expect(next.mode).toBe('incremental');
      expect(table(next, 'series_points')).toMatchObject({ checked: 1, written: 1 });
      expect(await exportedValue(path, parquet, USERS, VENUE_B, '2026-02-20')).toBe(220);
    } finally {
      await warehouse.close();
    }
  });

  it('removes a partition whose rows a reset deleted', async () => {
    const warehouse = await openWarehouse(path);
    await warehouse.reset({ streams: [DEVICES], from: '2026-03-01', rows: true }, 'run-reset');
    await warehouse.close();
    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 1, written: 0, removed: 1, unchanged: 5 });
    const manifest = JSON.parse(readFileSync(join(parquet, MANIFEST_FILE), 'utf8')) as Manifest;
    expect(Object.keys(manifest.tables.series_points.partitions)).not.toContain(`stream=${DEVICES}/month=2026-03/data.parquet`);
    expect(existsSync(join(parquet, 'series_points', `stream=${DEVICES}`, 'month=2026-03'))).toBe(false);
  });

  it('a file deleted or replaced in the folder is rewritten although no commit marked it', async () => {
    rmSync(join(parquet, 'series_points', `stream=${DEVICES}`, 'month=2026-01', 'data.parquet'));
    writeFileSync(join(parquet, 'venues', 'data.parquet'), 'not parquet');
    const report = await exportParquet({ warehouse: path, dir: parquet });
    expect(report.mode).toBe('incremental');
    expect(table(report, 'series_points')).toMatchObject({ checked: 1, written: 1 });
    expect(table(report, 'venues')).toMatchObject({ checked: 1, written: 1 });
    expect(await exportedValue(path, parquet, DEVICES, VENUE_A, '2026-01-02')).toBe(2001);
  });

  describe('reads every partition when the marks cannot be trusted', () => {
    it('when asked (--full)', async () => {
      const report = await exportParquet({ warehouse: path, dir: parquet, full: true });
      expect(report).toMatchObject({ mode: 'full', fullReason: 'asked for (--full)' });
      expect(table(report, 'series_points')).toMatchObject({ checked: 6, written: 0 });
    });

    it('after a --full export that stopped midway (the next export finishes it in full)', async () => {
      await runOnFile(path, `UPDATE series_points SET value = 8 WHERE stream = '${DEVICES}' AND ts = TIMESTAMPTZ '2026-03-02 00:00:00+00'`);
      await expect(exportParquet({ warehouse: path, dir: parquet, full: true, store: failingStore(parquet, 0) })).rejects.toThrow(/connection reset/);
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('full');
      expect(await exportedValue(path, parquet, DEVICES, VENUE_A, '2026-03-02')).toBe(8);
    });

    it('when the manifest is missing', async () => {
      rmSync(join(parquet, MANIFEST_FILE));
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report).toMatchObject({ mode: 'full', fullReason: 'no manifest yet' });
      expect(table(report, 'series_points')).toMatchObject({ checked: 6 });
      expect((await exportParquet({ warehouse: path, dir: parquet })).mode).toBe('incremental');
    });

    it('when the manifest is of an older format', async () => {
      const file = join(parquet, MANIFEST_FILE);
      writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), format: 1 }));
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('full');
      expect(table(report, 'series_points')).toMatchObject({ checked: 6 });
    });

    it('when the folder is gone: every file is written again', async () => {
      rmSync(parquet, { recursive: true });
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('full');
      expect(table(report, 'series_points')).toMatchObject({ checked: 6, written: 6 });
      expect(existsSync(join(parquet, 'venues', 'data.parquet'))).toBe(true);
    });

    it('when the manifest does not say which state it follows (an older venue-etl)', async () => {
      const file = join(parquet, MANIFEST_FILE);
      const { changes: _gone, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      writeFileSync(file, JSON.stringify(older));
      // A change made with plain SQL has no mark: only the full path can see it.
      await runOnFile(path, `UPDATE series_points SET value = 9 WHERE stream = '${DEVICES}' AND ts = TIMESTAMPTZ '2026-01-02 00:00:00+00'`);
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('full');
      expect(table(report, 'series_points')).toMatchObject({ checked: 6, written: 1 });
      expect(await exportedValue(path, parquet, DEVICES, VENUE_A, '2026-01-02')).toBe(9);
      expect((await exportParquet({ warehouse: path, dir: parquet })).mode).toBe('incremental');
    });

    it('when the manifest was written for another warehouse (refused unless it takes the writer over)', async () => {
      const other = join(temp.dir, 'other.duckdb');
      const warehouse = await openWarehouse(other);
      await warehouse.commitSlices('run-1', [days(VENUE_A, USERS, '2026-01-01', 90, 0)]);
      await warehouse.close();
      await expect(exportParquet({ warehouse: other, dir: parquet })).rejects.toMatchObject({ code: 'VENUE_EXPORT_WRITER_TAKEN' });
      const report = await exportParquet({ warehouse: other, dir: parquet, takeOver: true });
      expect(report).toMatchObject({ mode: 'full', fullReason: 'the manifest was written for another warehouse' });
      // Its rows differ from the first warehouse's only where the first had more streams and venues.
      expect(table(report, 'series_points')).toMatchObject({ checked: 3, removed: 3 });
    });

    it('when an export to another folder forgot the marks since', async () => {
      const second = join(temp.dir, 'second');
      await exportParquet({ warehouse: path, dir: second });
      const warehouse = await openWarehouse(path);
      await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-02-11', 1, 42)]);
      await warehouse.close();
      await exportParquet({ warehouse: path, dir: second });
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('full');
      expect(report.fullReason).toMatch(/generation/);
      expect(await exportedValue(path, parquet, USERS, VENUE_A, '2026-02-11')).toBe(42);
    });

    it('for a table whose columns changed', async () => {
      await runOnFile(path, `ALTER TABLE venues ADD COLUMN extra VARCHAR`);
      const report = await exportParquet({ warehouse: path, dir: parquet });
      expect(report.mode).toBe('incremental');
      expect(table(report, 'venues')).toMatchObject({ checked: 1, written: 1 });
      expect(table(report, 'users')).toMatchObject({ checked: 0, written: 0 });
    });
  });
});

describe('marks written with the data', () => {
  let temp: ReturnType<typeof tempDir>;
  let warehouse: Warehouse;
  beforeEach(async () => {
    temp = tempDir();
    warehouse = await openWarehouse(join(temp.dir, 'w.duckdb'));
  });
  afterEach(async () => {
    await warehouse.close();
    temp.cleanup();
  });

  it('a window across a month boundary marks both months; a failed commit marks nothing', async () => {
    await warehouse.commitSlices('run-1', [days(VENUE_A, USERS, '2026-01-30', 3, 0)]);
    const rows = await warehouse.query(`SELECT DISTINCT table_name, stream, month FROM export_changes WHERE table_name = 'series_points' ORDER BY month`);
    expect(rows).toEqual([
      { table_name: 'series_points', stream: USERS, month: '2026-01' },
      { table_name: 'series_points', stream: USERS, month: '2026-02' },
    ]);
    const count = (await warehouse.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM export_changes'))[0].n;
    const contradictory = seriesSlice(VENUE_A, USERS, '2026-03-01', '2026-03-01', [
      ['users', 'day', '2026-03-01T00:00:00Z', 1],
      ['users', 'day', '2026-03-01T00:00:00Z', 2],
    ]);
    await expect(warehouse.commitSlices('run-2', [contradictory])).rejects.toThrow();
    expect((await warehouse.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM export_changes'))[0].n).toBe(count);
  });

  it('the same data committed again marks nothing new (its windows are unchanged)', async () => {
    await warehouse.commitSlices('run-1', [days(VENUE_A, USERS, '2026-01-01', 5, 0)]);
    const count = async () =>
      (await warehouse.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM export_changes WHERE table_name = 'series_points'`))[0].n;
    const before = await count();
    await warehouse.commitSlices('run-2', [days(VENUE_A, USERS, '2026-01-01', 5, 0)]);
    expect(await count()).toBe(before);
  });
});
