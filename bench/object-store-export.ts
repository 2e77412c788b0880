/**
 * B12: the same warehouse exported in full to a local folder and to an s3:// lake on an
 * S3-compatible server on loopback (bench/s3-server.ts), in one run: MB/s and rows/s of each,
 * and their ratio. The warehouse is B5's generator (bench/parquet-export.ts) at a smaller size;
 * both exports are full (no manifest yet), so they read and write the same partitions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { exportParquet, exportTotals, type ExportReport } from '../src/export/index.js';
import { ObjectStore, parseS3Target } from '../src/lake/index.js';
import { fmt, notMeasured, type Figure } from './figure.js';
import { generateWarehouse, type ExportDataOptions } from './parquet-export.js';
import { benchS3Server, type BenchS3Server } from './s3-server.js';

const WHAT = 'Parquet export to an object store vs local disk';
const TARGET = 'ratio (report)';

interface Throughput {
  readonly seconds: number;
  readonly bytes: number;
  readonly rows: number;
  readonly files: number;
}

export async function objectStoreExportFigure(options: ExportDataOptions & { readonly attempts?: number }): Promise<Figure> {
  let server: BenchS3Server;
  try {
    server = await benchS3Server();
  } catch (error) {
    return notMeasured('B12', WHAT, TARGET, `no S3-compatible server: ${error instanceof Error ? error.message : String(error)}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b12-'));
  const root = `s3://${server.bucket}/bench-b12/${randomUUID()}`;
  const parsed = parseS3Target(root);
  if (!('target' in parsed)) throw new Error(parsed.problem);
  const settings = { endpoint: server.endpoint, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey };
  try {
    const warehouse = join(dir, 'warehouse.duckdb');
    await generateWarehouse(warehouse, options);
    // Alternating, best of each: the first export also pays for reading the warehouse cold.
    const locals: Throughput[] = [];
    const remotes: Throughput[] = [];
    const attempts = options.attempts ?? 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      // A fresh target each time: both exports are full.
      locals.push(throughput(await exportParquet({ warehouse, dir: join(dir, `parquet-${attempt}`) })));
      remotes.push(throughput(await exportParquet({ warehouse, dir: `${root}/${attempt}`, s3: settings })));
    }
    const best = (runs: Throughput[]): Throughput => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const local = best(locals);
    const remote = best(remotes);
    const ratio = remote.bytes / remote.seconds / (local.bytes / local.seconds);
    return {
      id: 'B12',
      what: WHAT,
      measured: `${rate(remote)} to s3`,
      limit: `${rate(local)} to disk`,
      ratio: fmt.ratio(ratio),
      target: TARGET,
      met: true,
      notes: [
        `Best of ${attempts} alternating run${attempts > 1 ? 's' : ''} of each: local ${locals.map((t) => fmt.seconds(t.seconds * 1000)).join(', ')}; object store ${remotes.map((t) => fmt.seconds(t.seconds * 1000)).join(', ')}.`,
        `${fmt.count(local.rows)} rows in ${local.files} files (${fmt.mb(local.bytes)}): local folder ${fmt.seconds(local.seconds * 1000)}, ` +
          `object store ${fmt.seconds(remote.seconds * 1000)} (${fmt.mb(remote.bytes)}); the object store's bytes go over HTTP on loopback ` +
          `to Swift (proxy + object server, one replica), one PUT per file, up to 8 in flight`,
      ],
    };
  } finally {
    const store = new ObjectStore({ target: parsed.target, settings });
    try {
      await store.delete((await store.list()).map((object) => object.key));
    } catch {
      // The lake is under its own random prefix; leaving it behind harms no other run.
    } finally {
      store.close();
    }
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
}

function throughput(report: ExportReport): Throughput {
  const totals = exportTotals(report);
  return { seconds: report.seconds, bytes: totals.bytes, rows: totals.rows, files: totals.written };
}

function rate(t: Throughput): string {
  const mbPerSecond = t.bytes / 1e6 / t.seconds;
  // The generated data compresses to ~1.6 bytes a row: a few MB/s at most, so two decimals.
  return `${mbPerSecond.toFixed(mbPerSecond < 10 ? 2 : 1)} MB/s, ${fmt.rate(t.rows / t.seconds)} rows/s`;
}
