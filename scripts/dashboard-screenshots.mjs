// The README's and docs/dashboard.md's dashboard screenshots, made from the demo in Chromium:
//   npm run build && node scripts/dashboard-screenshots.mjs [--out docs]
// The demo warehouse (12 venues, seed 7) with one day of hourly rows for its first venue (as a
// one-day window at hour grain stores them), so the peak-hours grid is drawn; then three views:
// all venues (1280 px), one venue on a phone (390 px), and the range control moved to the last
// 7 days with the crosshair on a day. Viewport-sized PNGs, not whole pages, to keep them small.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { runDemo } from '../dist/src/demo/demo.js';
import { createLogger } from '../dist/src/log/index.js';

const args = process.argv.slice(2);
const out = resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : 'docs');
const dir = mkdtempSync(join(tmpdir(), 'venue-etl-screenshots-'));

async function hourlyRows(warehouse) {
  const instance = await DuckDBInstance.create(warehouse);
  const connection = await instance.connect();
  try {
    const first = await connection.runAndReadAll('SELECT venue_id::VARCHAR AS v, max(ts)::DATE::VARCHAR AS day FROM series_points GROUP BY 1 ORDER BY sum(value) DESC LIMIT 1');
    const [{ v, day }] = first.getRowObjectsJson();
    await connection.run(`INSERT INTO series_points
      SELECT '${v}'::UUID, s.stream, s.metric, 'hour', TIMESTAMPTZ '${day} 00:00:00+00' + to_hours(h.h::INTEGER),
             round(40 + 30 * sin((h.h - 6) / 24 * 2 * pi()) * (CASE WHEN s.metric = 'detected' THEN 2 ELSE 1 END))::DOUBLE, 'screenshots-hourly', now()
        FROM (VALUES ('venue-devices-history', 'detected'), ('venue-devices-history', 'authenticated')) s(stream, metric), range(24) h(h)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const browser = await chromium.launch({ executablePath: process.env.VENUE_ETL_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await runDemo({ dir, venues: 12, seed: 7, logger: createLogger({ level: 'silent', destination: quiet }) });
  const warehouse = join(dir, 'warehouse.duckdb');
  await hourlyRows(warehouse);
  // The built CLI with the demo's config, which names the venues.
  const file = join(dir, 'dashboard.html');
  execFileSync(process.execPath, [resolve('dist/src/cli.js'), 'dashboard', '--config', join(dir, 'venue-etl.config.json'), '--out', file, '--top', '8'], { stdio: 'ignore' });
  const url = `file://${file}`;
  const shot = async (width, height, file, act) => {
    const tab = await browser.newPage({ viewport: { width, height } });
    await tab.goto(url);
    await tab.waitForSelector('body[data-range]');
    if (act) await act(tab);
    await tab.screenshot({ path: join(out, file) });
    await tab.close();
    console.log(join(out, file));
  };
  await shot(1280, 1500, 'dashboard-all-venues.png');
  await shot(390, 1600, 'dashboard-one-venue.png', async (tab) => {
    await tab.selectOption('#venue', { index: 1 });
  });
  await shot(1280, 900, 'dashboard-range.png', async (tab) => {
    await tab.click('#range-presets button[data-days="7"]');
    await tab.locator('#devices').scrollIntoViewIfNeeded();
    await tab.evaluate('window.scrollTo(0, 0)');
    const hit = await tab.locator('#chart-devices svg .hit').boundingBox();
    await tab.mouse.move(hit.x + hit.width * 0.66, hit.y + hit.height / 2);
  });
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
