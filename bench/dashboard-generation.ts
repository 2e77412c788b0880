/**
 * B8: `venue-etl dashboard` on a warehouse of 20 and of 1,000 venues × 1 year: the time to read
 * the reports and write the page, and the page's size. The data is B5's generator (every series
 * and summary stream, one row per venue, metric and day).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard, writeDashboardFile } from '../src/dashboard/index.js';
import { fmt, type Figure } from './figure.js';
import { generateWarehouse } from './parquet-export.js';

export interface DashboardSize {
  readonly venues: number;
  readonly days: number;
}

interface Measured extends DashboardSize {
  readonly ms: number;
  readonly bytes: number;
}

export async function measure(size: DashboardSize): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-dashboard-'));
  try {
    const warehouse = join(dir, 'warehouse.duckdb');
    await generateWarehouse(warehouse, { seriesRows: 9 * size.venues * size.days, venues: size.venues, summaryDays: size.days });
    const started = performance.now();
    const page = await buildDashboard({ warehouse: { path: warehouse, memoryLimit: '128MB' }, parquet: { dir: join(dir, 'parquet') } }, false, {});
    const file = writeDashboardFile(join(dir, 'dashboard.html'), page.html);
    const ms = performance.now() - started;
    return { ...size, ms, bytes: statSync(file).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Target: a year of 1,000 venues in under 30 s and 25 MB (a page a browser opens in seconds). */
export async function dashboardGenerationFigure(sizes: readonly DashboardSize[]): Promise<Figure> {
  const results: Measured[] = [];
  for (const size of sizes) results.push(await measure(size));
  const largest = results[results.length - 1]!;
  const label = (r: Measured) => `${fmt.count(r.venues)} venues × ${r.days} days`;
  return {
    id: 'B8',
    what: `dashboard HTML: ${results.map(label).join(', then ')}`,
    measured: results.map((r) => `${fmt.seconds(r.ms)}, ${fmt.mb(r.bytes)}`).join('; '),
    limit: '-',
    ratio: '-',
    target: '< 30 s and < 25 MB at the largest',
    met: largest.ms < 30_000 && largest.bytes < 25e6,
    notes: [
      `Generation reads 14 named reports and writes one self-contained file: ${results.map((r) => `${label(r)} ${fmt.seconds(r.ms)} and ${fmt.mb(r.bytes)}`).join('; ')}. ` +
        'The size is the data (7 daily series per venue); the page code is ~30 KB.',
    ],
  };
}
