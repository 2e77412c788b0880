import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { launchChromium } from './browser.js';
import { CHART_IDS, demoWarehouse, embeddedData, readPage, runCli, withHourlyRows, type DemoWarehouse } from './fixture.js';

let demo: DemoWarehouse;
let browser: Browser;
let page: Page;
let pageUrl: string;
let firstVenue: string;
const consoleErrors: string[] = [];
const requests: string[] = [];
const screenshots = join(tmpdir(), 'venue-etl-dashboard-screenshots');

beforeAll(async () => {
  browser = await launchChromium();
  demo = await demoWarehouse(12);
  const venues = embeddedData(await makePage('probe.html')).venues as { id: string }[];
  firstVenue = venues[0]!.id;
  // Hourly rows for one venue, so the peak-hours grid is drawn too.
  await withHourlyRows(demo.warehouse, firstVenue);
  await makePage('dashboard.html');
  pageUrl = pathToFileURL(join(demo.dir, 'dashboard.html')).href;
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pageUrl, { waitUntil: 'load' });
  // Three runs of the built CLI and a demo sync: minutes on a loaded 2-core machine.
}, 240_000);

afterAll(async () => {
  await browser?.close();
  demo?.cleanup();
});

async function makePage(name: string): Promise<string> {
  const run = await runCli(['dashboard', '--out', join(demo.dir, name), '--top', '5', '--config', demo.config]);
  expect(run.code, run.stderr).toBe(0);
  return readPage(join(demo.dir, name));
}

/**
 * Per chart: its id and how many marks (lines, bars, cells) it drew with a visible size. A string
 * the page evaluates: the tests are compiled without the DOM's types.
 */
async function drawnMarks(): Promise<Record<string, number>> {
  const marks: unknown = await page.evaluate(`Object.fromEntries([...document.querySelectorAll('figure.chart')].map((figure) => [
    figure.id,
    [...figure.querySelectorAll('svg .mark')].filter((mark) => { const box = mark.getBBox(); return box.width > 0 || box.height > 0; }).length,
  ]))`);
  return z.record(z.string(), z.number()).parse(marks);
}

describe('the dashboard in Chromium', () => {
  it('opens with no console error and no request but the file itself', async () => {
    await page.waitForSelector('#chart-devices svg');
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([pageUrl]);
  });

  it('draws marks in every chart, the peak-hours grid included', async () => {
    const marks = await drawnMarks();
    const expected = CHART_IDS;
    expect(Object.keys(marks).sort()).toEqual([...expected].sort());
    for (const id of expected) expect(marks[id], id).toBeGreaterThan(0);
    expect(marks['chart-peak-hours']).toBe(7 * 24);
    // Top 5 and "the rest" of 12 venues.
    expect(marks['chart-ranking']).toBe(6);
    expect(await page.locator('#chart-ranking').textContent()).toContain('the rest (7 venues)');
    mkdirSync(screenshots, { recursive: true });
    const file = join(screenshots, 'all-venues.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`dashboard screenshot: ${file}`);
  });

  it('the venue selector changes what is shown', async () => {
    const allCards = await page.locator('.cards').textContent();
    const allTable = await page.locator('#chart-devices table').innerHTML();
    const options = await page.locator('#venue option').allTextContents();
    expect(options).toHaveLength(13);
    // By name, after "All venues".
    expect(options.slice(1)).toEqual([...options.slice(1)].sort((a, b) => a.localeCompare(b)));
    // The venue ranked last (the page's venues are in rank order).
    await page.selectOption('#venue', '11');
    expect(await page.locator('#selection').textContent()).toMatch(/^Venue /);
    expect(await page.locator('body').getAttribute('data-selection')).not.toBe('all');
    expect(await page.locator('.cards').textContent()).not.toBe(allCards);
    expect(await page.locator('#chart-devices table').innerHTML()).not.toBe(allTable);
    // That venue has no hourly rows: the grid gives way to a note; its rank is said under the top 5.
    expect(await page.locator('#chart-peak-hours').textContent()).toMatch(/No hourly rows for .+ in these months/);
    expect(await page.locator('#venues').textContent()).toMatch(/ranks #12 of 12/);
    const marks = await drawnMarks();
    for (const id of ['chart-devices', 'chart-logins', 'chart-rating-distribution', 'chart-embeds']) expect(marks[id], id).toBeGreaterThan(0);
    await page.screenshot({ path: join(screenshots, 'one-venue.png'), fullPage: true });

    await page.selectOption('#venue', '-1');
    expect(await page.locator('.cards').textContent()).toBe(allCards);
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([pageUrl]);
  });

  it('prints: every chart is in the print layout and the selector is hidden', async () => {
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#venue').isVisible()).toBe(false);
    expect(await page.locator('figure.chart svg').count()).toBeGreaterThan(10);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.emulateMedia({ media: 'screen' });
  });
});
