/**
 * The export's environment failing under it: a full disk in the middle of an incremental export
 * (a size-limited tmpfs this test mounts; tests run as root), the Parquet folder deleted while
 * the export writes it, and `parquet.dir` naming a file. Each must end in a coded error with a
 * hint that names the absolute path, never VENUE_ETL_INTERNAL; the Parquet set must stay
 * consistent (each partition its old complete file or its new complete one, the manifest
 * naming no file it does not hold) and the next export must finish the job.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnv, describeRun, runCli, type CliResult } from '../e2e/harness.js';
import { exportParquet, MANIFEST_FILE, type Manifest } from '../../src/export/index.js';
import { runOnFile, seededWarehouse, tempDir, withFile } from '../readside/fixture.js';
import { reportFigure } from './figures.js';
import { diffExportWithWarehouse, filesUnder, unreadableParquetFiles } from './parquet-reads.js';

const quote = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** 20 extra streams over the 12 months of 2024: 240 partitions, so a failure lands mid-way. */
const BULK_SQL = `INSERT INTO series_points
  SELECT '33333333-3333-4333-8333-333333333333', 'bulk-' || s.s, 'm' || k.k, 'day', TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(d.d::INTEGER),
         (d.d * s.s + k.k) % 97, 'run-bulk', now()
    FROM range(20) s(s), range(366) d(d), range(10) k(k)`;

/** Late data in every partition: random values compress badly, so every file grows. */
const GROWTH_SQL = `INSERT INTO series_points
  SELECT venue_id, stream, 'late-' || metric, granularity, ts, random(), 'run-late', now() FROM series_points`;

function writeConfig(dir: string, parquetDir: string): string {
  const path = join(dir, 'venue-etl.config.json');
  writeFileSync(path, JSON.stringify({ warehouse: { path: join(dir, 'warehouse.duckdb') }, parquet: { dir: parquetDir } }));
  return path;
}

const cli = (args: readonly string[], dir: string, options: Parameters<typeof runCli>[1] = {}): Promise<CliResult> =>
  runCli([...args, '--config', join(dir, 'venue-etl.config.json')], { cwd: dir, env: childEnv(), timeoutMs: 120_000, ...options });

/** A coded error with a hint naming `path`, no internal error and no stack trace. */
function clearError(run: CliResult, code: string, path: string): boolean {
  return (
    run.stderr.includes(`${code}: `) &&
    run.stderr.includes(path) &&
    /\n\s+hint: \S/.test(run.stderr) &&
    !run.stderr.includes('VENUE_ETL_INTERNAL') &&
    !/\n\s+at /.test(run.stderr)
  );
}

/** `count:checksum` of one series partition's rows (the columns a file holds), in a warehouse or a file. */
async function partitionChecksums(warehouse: string, parquet: string): Promise<{ file: string; inFile: string; inWarehouse: string }[]> {
  const files = filesUnder(join(parquet, 'series_points')).filter((f) => f.endsWith('.parquet'));
  const columns = 'venue_id, metric, granularity::VARCHAR, ts, value, run_id, loaded_at';
  return withFile(warehouse, async (query) => {
    const out: { file: string; inFile: string; inWarehouse: string }[] = [];
    for (const file of files) {
      const [, stream, month] = /^stream=([^/]+)\/month=(\d{4}-\d{2})\/data\.parquet$/.exec(file) ?? [];
      const checksum = `count(*)::VARCHAR || ':' || coalesce(sum(hash(${columns})), 0)::VARCHAR AS c`;
      const [inFile] = await query(`SELECT ${checksum} FROM read_parquet(${quote(join(parquet, 'series_points', file))})`);
      const [inWarehouse] = await query(
        `SELECT ${checksum} FROM series_points WHERE stream = ${quote(decodeURIComponent(stream!))} AND strftime(timezone('UTC', ts), '%Y-%m') = ${quote(month!)}`,
      );
      out.push({ file, inFile: String(inFile!.c), inWarehouse: String(inWarehouse!.c) });
    }
    return out;
  });
}

/** Manifest partitions whose file is missing, or whose file is the one the manifest describes but holds other rows. */
async function manifestClaimsNotOnDisk(parquet: string, old: string): Promise<string[]> {
  const manifest = JSON.parse(readFileSync(join(parquet, MANIFEST_FILE), 'utf8')) as Manifest;
  const bad: string[] = [];
  const byFile = new Map((await partitionChecksums(old, parquet)).map((p) => [p.file, p]));
  for (const [table, entry] of Object.entries(manifest.tables)) {
    for (const [key, partition] of Object.entries(entry.partitions)) {
      const path = join(parquet, table, ...key.split('/'));
      if (!existsSync(path)) {
        bad.push(`${table}/${key}: missing`);
        continue;
      }
      const stat = statSync(path);
      const described = `${stat.ino}:${stat.mtimeMs}` === partition.version && stat.size === partition.bytes;
      // The manifest was written from the old rows: a file it describes must hold them.
      const checked = byFile.get(key);
      if (described && table === 'series_points' && checked && checked.inFile !== checked.inWarehouse) bad.push(`${table}/${key}: other rows`);
    }
  }
  return bad;
}

/** Visible data files under `dir` right now, while an export renames files in it. */
function visibleParquetFiles(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.parquet')).length;
  } catch {
    return 0; // a folder vanished between two reads: look again
  }
}

beforeAll(() => {
  assertBuilt();
});

describe('a full disk during an incremental export', () => {
  const { dir, cleanup } = tempDir();
  const disk = join(dir, 'disk');
  const parquet = join(disk, 'parquet');
  const warehouse = join(dir, 'warehouse.duckdb');
  const old = join(dir, 'before-late-data.duckdb');
  let mounted = false;

  beforeAll(async () => {
    mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', disk], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8') ?? String(error);
      throw new Error(`this test needs a size-limited tmpfs and mounts one (tests run as root in CI); mount failed: ${stderr}`);
    }
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, BULK_SQL);
    writeConfig(dir, parquet);
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', ['-l', disk]);
    cleanup();
  });

  it('stops with VENUE_EXPORT_DISK_FULL, keeps every partition old-or-new and complete, and the next export finishes', async () => {
    const first = await cli(['export'], dir);
    expect(first.code, describeRun(first)).toBe(0);
    copyFileSync(warehouse, old);
    await runOnFile(warehouse, GROWTH_SQL);
    // How much the late data adds to the series files, measured by an export elsewhere.
    const scratch = await exportParquet({ warehouse, dir: join(dir, 'scratch'), tables: ['series_points'] });
    const oldSeriesBytes = (JSON.parse(readFileSync(join(parquet, MANIFEST_FILE), 'utf8')) as Manifest).tables.series_points!.bytes;
    const growth = scratch.tables[0]!.bytes - oldSeriesBytes;
    expect(growth).toBeGreaterThan(200_000);
    // Leave room for about half of it.
    const stat = statfsSync(disk);
    const filler = Number(stat.bavail) * Number(stat.bsize) - Math.round(growth / 2);
    writeFileSync(join(disk, 'filler'), Buffer.alloc(filler));

    // The growth was written with plain SQL, which marks no partition: --full reads them all.
    const full = await cli(['export', '--full'], dir);
    const after = await partitionChecksums(warehouse, parquet);
    const before = new Map((await partitionChecksums(old, parquet)).map((p) => [p.file, p]));
    const isNew = after.filter((p) => p.inFile === p.inWarehouse).length;
    const isOld = after.filter((p) => before.get(p.file)?.inFile === before.get(p.file)?.inWarehouse && p.inFile !== p.inWarehouse).length;
    const neither = after.length - isNew - isOld;
    const unreadable = (await unreadableParquetFiles(parquet)).length;
    const manifestBad = await manifestClaimsNotOnDisk(parquet, old);
    const temps = filesUnder(parquet).filter((f) => !f.endsWith('.parquet') && f !== MANIFEST_FILE);

    rmSync(join(disk, 'filler'));
    // A full export that stopped leaves a manifest that claims no warehouse state: the next
    // plain export reads every partition too.
    const again = await cli(['export'], dir);
    const diff = await diffExportWithWarehouse(warehouse, parquet);
    reportFigure('export-environment', {
      case: 'full disk',
      exit: full.code,
      clearError: clearError(full, 'VENUE_EXPORT_DISK_FULL', parquet),
      partitionsNew: isNew,
      partitionsOld: isOld,
      partitionsNeither: neither,
      unreadableFiles: unreadable,
      manifestClaimsNotOnDisk: manifestBad.length,
      tempFilesLeft: temps.length,
      nextExportExit: again.code,
      differingRowsAfterNextExport: diff.total,
    });
    expect(full.code, describeRun(full)).toBe(1);
    expect(clearError(full, 'VENUE_EXPORT_DISK_FULL', parquet), full.stderr).toBe(true);
    // It stopped part-way: some partitions already new, some still old, none anything else.
    expect(isNew).toBeGreaterThan(0);
    expect(isOld).toBeGreaterThan(0);
    expect(neither).toBe(0);
    expect(unreadable).toBe(0);
    expect(manifestBad).toEqual([]);
    expect(temps).toEqual([]);
    expect(again.code, describeRun(again)).toBe(0);
    expect(diff.total).toBe(0);
  }, 240_000);
});

describe('the Parquet folder deleted during an export', () => {
  const { dir, cleanup } = tempDir();
  const parquet = join(dir, 'parquet');
  const warehouse = join(dir, 'warehouse.duckdb');

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    await runOnFile(warehouse, BULK_SQL);
    writeConfig(dir, parquet);
  });
  afterAll(cleanup);

  it('stops with VENUE_EXPORT_FOLDER_GONE naming the folder, recreates nothing, and the next export writes it all', async () => {
    // Once five files are written, the folder is moved away and deleted (a move is instant).
    const deleting = cli(['export'], dir);
    let deleted = false;
    const started = Date.now();
    while (!deleted && Date.now() - started < 60_000) {
      if (visibleParquetFiles(parquet) >= 5) {
        renameSync(parquet, `${parquet}.deleted`);
        rmSync(`${parquet}.deleted`, { recursive: true, force: true });
        deleted = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const run = await deleting;
    const recreated = existsSync(parquet);
    const again = await cli(['export'], dir);
    const diff = await diffExportWithWarehouse(warehouse, parquet);
    reportFigure('export-environment', {
      case: 'folder deleted mid-export',
      exit: run.code,
      clearError: clearError(run, 'VENUE_EXPORT_FOLDER_GONE', parquet),
      folderRecreatedWithPartialTree: recreated,
      nextExportExit: again.code,
      differingRowsAfterNextExport: diff.total,
    });
    expect(deleted).toBe(true);
    expect(run.code, describeRun(run)).toBe(1);
    expect(clearError(run, 'VENUE_EXPORT_FOLDER_GONE', parquet), run.stderr).toBe(true);
    expect(recreated).toBe(false);
    expect(again.code, describeRun(again)).toBe(0);
    expect(diff.total).toBe(0);
  }, 180_000);
});

describe('parquet.dir naming a file', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const file = join(dir, 'parquet');

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    writeFileSync(file, 'not a folder\n');
  });
  afterAll(cleanup);

  it('export and sql --parquet stop with VENUE_EXPORT_NOT_A_FOLDER naming the file (exit 2), and leave it alone', async () => {
    const cases: { name: string; parquetDir: string; args: readonly string[] }[] = [
      { name: 'export, parquet.dir is a file', parquetDir: file, args: ['export'] },
      { name: 'export, a parent of parquet.dir is a file', parquetDir: join(file, 'nested', 'parquet'), args: ['export'] },
      { name: 'sql --parquet, parquet.dir is a file', parquetDir: file, args: ['sql', 'SELECT 1', '--parquet'] },
    ];
    const results = [];
    for (const c of cases) {
      writeConfig(dir, c.parquetDir);
      const run = await cli(c.args, dir);
      results.push({ ...c, run, clear: clearError(run, 'VENUE_EXPORT_NOT_A_FOLDER', file) && run.stderr.includes('parquet.dir') });
    }
    reportFigure('export-environment', {
      case: 'parquet.dir is a file',
      runs: results.length,
      exit2WithClearError: results.filter((r) => r.run.code === 2 && r.clear).length,
      fileUnchanged: readFileSync(file, 'utf8') === 'not a folder\n',
    });
    for (const r of results) {
      expect(r.run.code, `${r.name}\n${describeRun(r.run)}`).toBe(2);
      expect(r.clear, `${r.name}\n${r.run.stderr}`).toBe(true);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
  }, 60_000);
});
