/**
 * The explorable page at 20 and 1,000 venues × 13 months (B5's generator, every series and
 * summary stream, one row per venue, metric and day): the time to read the reports and write the
 * file, its size, and in Chromium at 1280 px the time to draw it from navigation, to move the
 * range to the last 30 days and to choose one venue.
 *
 *   node dist/bench/dashboard-render.js [--venues 20,1000]
 *
 * Not part of `npm run bench` (B8 times the file's generation there); it needs Chromium.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { z } from 'zod';
import { buildDashboard, writeDashboardFile } from '../src/dashboard/index.js';
import { generateWarehouse, LAST_DAY } from './parquet-export.js';

const DAYS = 396;
const args = process.argv.slice(2);
const venueCounts = (args.includes('--venues') ? args[args.indexOf('--venues') + 1]! : '20,1000').split(',').map(Number);
// The default window ends on the generated data's last day.
const now = new Date(Date.parse(`${LAST_DAY}T12:00:00Z`) + 86_400_000);

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.VENUE_ETL_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  console.log('| venues × days generated | days in the file | write the file | size | first draw (from navigation) | range → last 30 days | choose a venue |');
  console.log('|---|---|---|---|---|---|---|');
  try {
    for (const venues of venueCounts) {
      const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-dashboard-render-'));
      try {
        const warehouse = join(dir, 'warehouse.duckdb');
        await generateWarehouse(warehouse, { seriesRows: 9 * venues * DAYS, venues, summaryDays: DAYS });
        const started = performance.now();
        const page = await buildDashboard(
          { warehouse: { path: warehouse, memoryLimit: '4GB' }, parquet: { dir: join(dir, 'parquet') }, query: { memoryLimit: '4GB' } },
          false,
          { now },
        );
        const file = writeDashboardFile(join(dir, 'dashboard.html'), page.html);
        const written = performance.now() - started;
        const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await tab.waitForSelector('body[data-range]', { timeout: 120_000 });
        // Strings, not functions: this file is compiled without the DOM's types.
        const first = z.number().parse(await tab.evaluate('performance.now()'));
        const timed = async (action: () => Promise<void>) => {
          const t0 = z.number().parse(await tab.evaluate('performance.now()'));
          await action();
          await tab.evaluate('new Promise(requestAnimationFrame)');
          return z.number().parse(await tab.evaluate('performance.now()')) - t0;
        };
        const range = await timed(() => tab.click('#range-presets button[data-days="30"]'));
        const choose = await timed(async () => {
          await tab.selectOption('#venue', '0');
        });
        await tab.close();
        console.log(
          `| ${venues} × ${DAYS} | ${page.days} | ${(written / 1000).toFixed(1)} s | ${(statSync(file).size / 1e6).toFixed(2)} MB | ${first.toFixed(0)} ms | ${range.toFixed(0)} ms | ${choose.toFixed(0)} ms |`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
}

await main();
