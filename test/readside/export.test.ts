import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet, EXPORT_TABLES, MANIFEST_FILE, type ExportReport } from '../../src/export/index.js';
import { runCli, runOnFile, seededWarehouse, spawnCli, tempDir, withFile, useSeededCli, writeConfig } from './fixture.js';

/** Every file below `dir` (relative path → inode and mtime), to tell rewritten files from untouched ones. */
function fileIdentities(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const stat = statSync(path);
    files.set(path.slice(dir.length + 1), `${stat.ino}:${stat.mtimeMs}`);
  }
  return files;
}

function table(report: ExportReport, name: string) {
  const found = report.tables.find((t) => t.table === name);
  if (!found) throw new Error(`no report for ${name}`);
  return found;
}

/** Count and checksum of every table, in the warehouse and read back from Parquet as any engine would (docs/parquet.md). */
async function compareWithParquet(warehouse: string, parquet: string): Promise<void> {
  await withFile(warehouse, async (query) => {
    for (const { name, partitionBy } of EXPORT_TABLES) {
      const columns = await query(`SELECT column_name AS name, data_type AS type FROM duckdb_columns() WHERE table_name = '${name}' ORDER BY column_index`);
      const glob = partitionBy ? `${parquet}/${name}/**/*.parquet` : `${parquet}/${name}/*.parquet`;
      const checksum = (cast: boolean) =>
        `count(*)::VARCHAR AS n, coalesce(sum(hash(${columns
          .map((c) => (cast ? `CAST("${String(c.name)}" AS ${String(c.type)})` : `"${String(c.name)}"`))
          .join(', ')})), 0)::VARCHAR AS h`;
      const [inWarehouse] = await query(`SELECT ${checksum(false)} FROM "${name}"`);
      // Parquet has no ENUM: the text comes back as VARCHAR, cast like the --parquet views do.
      const [inParquet] = await query(`SELECT ${checksum(true)} FROM read_parquet('${glob}', hive_partitioning = ${partitionBy ? 'true' : 'false'})`);
      expect({ table: name, ...inParquet }).toEqual({ table: name, ...inWarehouse });
    }
  });
}

describe('parquet export', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  let first: ExportReport;

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    first = await exportParquet({ warehouse, dir: parquet });
  });
  afterAll(cleanup);

  it('writes every table, and reading the files back gives the warehouse tables', async () => {
    expect(first.tables.map((t) => t.table)).toEqual(EXPORT_TABLES.map((t) => t.name));
    for (const t of first.tables) expect(t.written, t.table).toBeGreaterThan(0);
    await compareWithParquet(warehouse, parquet);
    const manifest = JSON.parse(readFileSync(join(parquet, MANIFEST_FILE), 'utf8')) as { tables: Record<string, { rows: number }> };
    expect(Object.keys(manifest.tables).sort()).toEqual(EXPORT_TABLES.map((t) => t.name).sort());
    const [compression] = await runOnFile(warehouse, `SELECT list(DISTINCT compression) AS c FROM parquet_metadata('${parquet}/series_points/**/*.parquet')`);
    expect(compression.c).toEqual(['ZSTD']);
  });

  it('partitions series by stream and the month of ts, summaries by the month of period_start', async () => {
    const expected = await runOnFile(
      warehouse,
      `SELECT DISTINCT 'stream=' || stream || '/month=' || strftime(timezone('UTC', ts), '%Y-%m') || '/data.parquet' AS key FROM series_points ORDER BY key`,
    );
    const files = [...fileIdentities(join(parquet, 'series_points')).keys()].sort();
    expect(files).toEqual(expected.map((r) => r.key));
    expect(files.length).toBeGreaterThanOrEqual(8); // 4 streams over 60 days span at least 2 months
    const [misplaced] = await runOnFile(
      warehouse,
      `SELECT count(*)::INTEGER AS n FROM read_parquet('${parquet}/series_points/**/*.parquet', hive_partitioning = true)
        WHERE strftime(timezone('UTC', ts), '%Y-%m') <> month`,
    );
    expect(misplaced.n).toBe(0);
    const [misplacedSummaries] = await runOnFile(
      warehouse,
      `SELECT count(*)::INTEGER AS n FROM read_parquet('${parquet}/summary_values/**/*.parquet', hive_partitioning = true)
        WHERE strftime(period_start, '%Y-%m') <> month`,
    );
    expect(misplacedSummaries.n).toBe(0);
    // The stream lives in the path only, as hive partitioning has it.
    const [described] = await runOnFile(warehouse, `SELECT list(name) AS names FROM parquet_schema('${parquet}/series_points/**/*.parquet')`);
    expect(described.names).not.toContain('stream');
  });

  it('a second export with no change rewrites nothing', async () => {
    const before = fileIdentities(parquet);
    const again = await exportParquet({ warehouse, dir: parquet });
    for (const t of again.tables) {
      expect(t.written, t.table).toBe(0);
      expect(t.removed, t.table).toBe(0);
    }
    const after = fileIdentities(parquet);
    for (const [file, identity] of before) if (file.endsWith('.parquet')) expect(after.get(file), file).toBe(identity);
  });

  it('after one day changes, rewrites only its partition and removes partitions whose rows are gone', async () => {
    const [{ day, month }] = await runOnFile(
      warehouse,
      `SELECT strftime(max(timezone('UTC', ts))::DATE - 3, '%Y-%m-%d') AS day, strftime(max(timezone('UTC', ts))::DATE - 3, '%Y-%m') AS month
         FROM series_points`,
    );
    const [{ oldest }] = await runOnFile(warehouse, `SELECT strftime(min(timezone('UTC', ts)), '%Y-%m') AS oldest FROM series_points`);
    await runOnFile(warehouse, [
      `UPDATE series_points SET value = value + 1, run_id = 'run-3' WHERE stream = 'venue-users-history' AND timezone('UTC', ts)::DATE = DATE '${day}'`,
      `DELETE FROM series_points WHERE stream = 'venue-remarketing-history' AND strftime(timezone('UTC', ts), '%Y-%m') = '${oldest}'`,
    ]);
    const changed = `series_points/stream=venue-users-history/month=${month}/data.parquet`;
    const emptied = `series_points/stream=venue-remarketing-history/month=${oldest}/data.parquet`;
    const before = fileIdentities(parquet);
    expect(before.has(emptied)).toBe(true);

    // Changed with plain SQL, so no commit marked it: the full path (fingerprints) finds it.
    const report = await exportParquet({ warehouse, dir: parquet, full: true });
    expect(table(report, 'series_points')).toMatchObject({ written: 1, removed: 1, unchanged: first.tables[0].written - 2 });
    expect(table(report, 'summary_values')).toMatchObject({ written: 0, removed: 0 });
    expect(table(report, 'accounts')).toMatchObject({ written: 0, unchanged: 1 });

    const after = fileIdentities(parquet);
    expect(after.get(changed)).not.toBe(before.get(changed));
    expect(after.has(emptied)).toBe(false);
    expect(existsSync(join(parquet, 'series_points', 'stream=venue-remarketing-history', `month=${oldest}`))).toBe(false);
    for (const [file, identity] of before) {
      if (!file.endsWith('.parquet') || file === changed || file === emptied) continue;
      expect(after.get(file), file).toBe(identity);
    }
    await compareWithParquet(warehouse, parquet);
  });

  it('rewrites a small table when its rows change, and a file someone replaced', async () => {
    await runOnFile(warehouse, `UPDATE accounts SET language = 'de' WHERE email = 'owner@example.com'`);
    const report = await exportParquet({ warehouse, dir: parquet, tables: ['accounts', 'venues'], full: true });
    expect(report.tables.map((t) => [t.table, t.written, t.unchanged])).toEqual([
      ['accounts', 1, 0],
      ['venues', 0, 1],
    ]);
    // A copy over the exported file (same rows, new inode) is not trusted: rewritten.
    const file = join(parquet, 'venues', 'data.parquet');
    await runOnFile(warehouse, `COPY (SELECT * FROM venues LIMIT 0) TO '${file}' (FORMAT parquet)`);
    const repaired = await exportParquet({ warehouse, dir: parquet, tables: ['venues'] });
    expect(table(repaired, 'venues').written).toBe(1);
    await compareWithParquet(warehouse, parquet);
  });
});

describe('export through the CLI', () => {
  const { dir, warehouse, config } = useSeededCli();

  it('prints written / unchanged / removed, rows, size and seconds per table', async () => {
    const run = await runCli(['export', '--config', config, '--tables', 'accounts,series_points', '--log-level', 'warn']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^table\s+written\s+unchanged\s+removed\s+rows\s+rows written\s+size\s+seconds/);
    expect(run.stdout).toMatch(/\naccounts\s+1\s+0\s+0\s+2\s+2\s/);
    expect(run.stdout).toMatch(/\nseries_points\s+\d+\s+0\s+0\s+13500\s+13500\s/);
    expect(run.stdout).not.toMatch(/\nvenues\s/);
    expect(run.stderr).toBe('');
    expect(existsSync(join(dir, 'parquet', 'accounts', 'data.parquet'))).toBe(true);
  });

  it('export --full reads every partition: it picks up a change made with plain SQL, which carries no mark', async () => {
    // A whole export first: only then does the manifest follow a warehouse state incrementally.
    const first = await runCli(['export', '--config', config, '--log-level', 'warn']);
    expect(first.code, first.stderr).toBe(0);
    await runOnFile(warehouse, `UPDATE accounts SET language = 'de'`);
    const incremental = await runCli(['export', '--config', config, '--tables', 'accounts', '--log-level', 'warn']);
    expect(incremental.code, incremental.stderr).toBe(0);
    expect(incremental.stdout).toMatch(/\naccounts\s+0\s+1\s+0\s/);
    const full = await runCli(['export', '--config', config, '--tables', 'accounts', '--full', '--log-level', 'warn']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/\naccounts\s+1\s+0\s+0\s/);
  });

  it('refuses an unknown table with exit 2 and touches nothing', async () => {
    const run = await runCli(['export', '--config', config, '--tables', 'accounts,nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown table: nope');
  });

  it('says what to do when the warehouse does not exist yet', async () => {
    const { dir: empty, cleanup: done } = tempDir();
    try {
      const run = await runCli(['export', '--config', writeConfig(empty)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('VENUE_WAREHOUSE_MISSING');
      expect(run.stderr).toContain('venue-etl sync');
    } finally {
      done();
    }
  });
});

describe('an export killed with SIGKILL', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  let config: string;

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    // Many partitions (20 streams x 12 months) so the kill lands while files are being written.
    await runOnFile(
      warehouse,
      `INSERT INTO series_points
         SELECT '33333333-3333-4333-8333-333333333333', 'bulk-' || s.s, 'm', 'day', TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(d.d::INTEGER),
                (d.d * s.s) % 97, 'run-bulk', now()
           FROM range(20) s(s), range(366) d(d), range(10) k(k)`,
    );
    config = writeConfig(dir);
  });
  afterAll(cleanup);

  async function killAfterWritten(files: number): Promise<void> {
    const child = spawnCli(['export', '--config', config, '--log-level', 'debug']);
    let written = 0;
    let stderr = '';
    const killed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      written = (stderr.match(/"partition written"/g) ?? []).length;
      if (written >= files) child.kill('SIGKILL');
    });
    expect(await killed, stderr.slice(-2000)).toBe('SIGKILL');
  }

  /** Every visible data file opens and holds exactly its partition's rows: no half-written file. */
  async function visibleFilesAreComplete(): Promise<number> {
    const files = [...fileIdentities(parquet).keys()].filter((f) => f.endsWith('.parquet'));
    await withFile(warehouse, async (query) => {
      for (const file of files) {
        const match = /^series_points\/stream=([^/]+)\/month=(\d{4}-\d{2})\/data\.parquet$/.exec(file);
        if (!match) continue;
        const [inFile] = await query(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(parquet, file)}')`);
        const [inWarehouse] = await query(
          `SELECT count(*)::INTEGER AS n FROM series_points WHERE stream = '${match[1]}' AND strftime(timezone('UTC', ts), '%Y-%m') = '${match[2]}'`,
        );
        expect(inFile.n, file).toBe(inWarehouse.n);
      }
      // And the glob readers use works on whatever is there.
      if (files.some((f) => f.startsWith('series_points/'))) {
        await query(`SELECT count(*) FROM read_parquet('${parquet}/series_points/**/*.parquet', hive_partitioning = true)`);
      }
    });
    return files.length;
  }

  it('leaves only complete files visible, and the next export repairs everything', async () => {
    await killAfterWritten(3);
    const afterFirstKill = await visibleFilesAreComplete();
    expect(afterFirstKill).toBeGreaterThanOrEqual(3);

    await killAfterWritten(40);
    expect(await visibleFilesAreComplete()).toBeGreaterThan(afterFirstKill);

    const run = await runCli(['export', '--config', config, '--log-level', 'warn']);
    expect(run.code, run.stderr).toBe(0);
    const leftovers = [...fileIdentities(parquet).keys()].filter((f) => !f.endsWith('.parquet') && f !== MANIFEST_FILE);
    expect(leftovers).toEqual([]);
    await compareWithParquet(warehouse, parquet);
    // 20 bulk streams x the 12 months of 2024, plus the seeded streams' months.
    expect([...fileIdentities(join(parquet, 'series_points')).keys()].length).toBeGreaterThanOrEqual(248);
  });
});

describe('export inside a process that writes the warehouse (serve)', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  afterAll(cleanup);

  it('shares the open writer, and with shareWithWriters lets writers open the file during the export', async () => {
    await seededWarehouse(warehouse);
    const { openWarehouse } = await import('../../src/warehouse/index.js');
    const writer = await openWarehouse(warehouse);
    try {
      const report = await exportParquet({ warehouse: writer, dir: join(dir, 'parquet') });
      expect(report.tables.find((t) => t.table === 'accounts')?.written).toBe(1);
    } finally {
      await writer.close();
    }

    const { openWarehouseSource } = await import('../../src/readside/index.js');
    const reader = await openWarehouseSource(warehouse, { shareWithWriters: true });
    try {
      const during = await openWarehouse(warehouse);
      await during.transaction((session) => session.run(`UPDATE accounts SET language = 'fr'`));
      await during.close();
    } finally {
      await reader.close();
    }
    const report = await exportParquet({ warehouse, dir: join(dir, 'parquet'), tables: ['accounts'], full: true });
    expect(report.tables[0].written).toBe(1);
  });
});

describe('temp files left in the export folder', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'parquet');
  let running: ChildProcess | undefined;
  afterAll(() => {
    running?.kill('SIGKILL');
    cleanup();
  });

  /** The pid of a process that has exited: a temp named after it belongs to no running export. */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.on('exit', resolve));
    return child.pid!;
  }

  it('removes the manifest and data temps of exports that are gone, and leaves those of a running one', async () => {
    await seededWarehouse(warehouse);
    await exportParquet({ warehouse, dir: parquet, tables: ['accounts'] });
    // Stands in for an export that is still writing (another process, alive for the whole test).
    running = spawn('sleep', ['600']);
    const live = running.pid!;
    const dead = await deadPid();
    const temp = (folder: string, name: string, pid: number) => join(folder, `.${name}.tmp-${pid}`);
    const stale = [temp(parquet, MANIFEST_FILE, dead), temp(join(parquet, 'accounts'), 'data.parquet', dead)];
    const kept = [temp(parquet, MANIFEST_FILE, live), temp(join(parquet, 'accounts'), 'data.parquet', live)];
    for (const file of [...stale, ...kept]) writeFileSync(file, 'partial');

    const run = await runCli(['export', '--config', writeConfig(dir), '--tables', 'accounts', '--log-level', 'warn']);
    expect(run.code, run.stderr).toBe(0);
    expect(stale.filter((file) => existsSync(file))).toEqual([]);
    expect(kept.filter((file) => existsSync(file))).toEqual(kept);
  });
});
