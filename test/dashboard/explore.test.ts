/**
 * The explorable dashboard in Chromium: no text outside its chart at phone, laptop and wide
 * widths; values on hover and from the keyboard; the range control over the days the file holds
 * changing every figure; the empty and partial states, and a range without data.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { launchChromium } from './browser.js';
import { addDays, firstSeriesDay, hourlyDay } from './explore-fixture.js';
import { CHART_IDS, demoWarehouse, embeddedData, readPage, runCli, withHourlyRows, type DemoWarehouse } from './fixture.js';

let demo: DemoWarehouse;
let browser: Browser;
let early: string;
let lastDay: string;
let days: string[];
let venueIds: string[];
const errors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  demo = await demoWarehouse(12);
  const probe = embeddedData(await makePage('probe.html'));
  venueIds = (probe.venues as { id: string }[]).map((v) => v.id);
  early = addDays(await firstSeriesDay(demo.warehouse), -40);
  // Hourly rows in two months for the first venue (different values, so the months weigh
  // differently), and one day older than the default window of 13 months.
  lastDay = await withHourlyRows(demo.warehouse, venueIds[0]!);
  await hourlyDay(demo.warehouse, venueIds[0]!, early, 2);
  await hourlyDay(demo.warehouse, venueIds[1]!, addDays(new Date().toISOString().slice(0, 10), -430), 1);
  days = embeddedData(await makePage('explore.html')).days as string[];
}, 180_000);

afterAll(async () => {
  await browser?.close();
  demo?.cleanup();
});

async function makePage(name: string, extra: readonly string[] = []): Promise<string> {
  const run = await runCli(['dashboard', '--out', join(demo.dir, name), '--top', '5', '--config', demo.config, ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return readPage(join(demo.dir, name));
}

async function open(width: number, name = 'explore.html', hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${pathToFileURL(join(demo.dir, name)).href}${hash}`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-range]');
  return page;
}

/** Strings, not functions: the tests are compiled without the DOM's types. */
const TEXT_OUTSIDE = `[...document.querySelectorAll('figure svg')].flatMap((svg) => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].map((text) => {
    const r = text.getBoundingClientRect();
    const out = Math.max(box.left - r.left, r.right - box.right, box.top - r.top, r.bottom - box.bottom);
    return { chart: svg.closest('figure').id, text: text.textContent, out: Math.round(out * 10) / 10 };
  }).filter((t) => t.out > 0.5);
})`;

/** The smallest SVG text as drawn on screen, in CSS px (its font size times the SVG's scale). */
const SMALLEST_TEXT = `Math.min(...[...document.querySelectorAll('figure svg')].flatMap((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize) * scale);
}))`;

/** Every figure (and the tiles) as its markup: what the range control must change. */
const FIGURES = `Object.fromEntries([['tiles', document.getElementById('tiles')?.innerHTML ?? ''],
  ...[...document.querySelectorAll('figure.chart')].map((f) => [f.id, f.innerHTML])])`;

const Strings = z.record(z.string(), z.string());

describe('the explorable dashboard in Chromium', () => {
  it('holds the last 13 months by default and opens on the last 90 days of them', () => {
    expect(days[0]).toBe(early);
    expect(days.at(-1)).toBe(lastDay);
    // The day 430 days back is outside the default window.
    expect(days.length).toBeLessThan(400);
  });

  it('draws no text outside its chart, and readable text, at 390, 1280 and 1920 px', async () => {
    for (const width of [390, 1280, 1920]) {
      const page = await open(width);
      const charts = await page.locator('figure.chart svg').count();
      expect(charts, `${width} px`).toBeGreaterThanOrEqual(12);
      expect(z.array(z.unknown()).parse(await page.evaluate(TEXT_OUTSIDE)), `${width} px`).toEqual([]);
      expect(z.number().parse(await page.evaluate(SMALLEST_TEXT)), `${width} px`).toBeGreaterThanOrEqual(11);
      // Nothing wider than the window (the page never scrolls sideways).
      expect(z.number().parse(await page.evaluate('document.documentElement.scrollWidth')), `${width} px`).toBeLessThanOrEqual(width);
      await page.close();
    }
    expect(errors).toEqual([]);
  });

  it('shows values on hover: a crosshair on the time charts, by pointer and by keys, and each bar and cell', async () => {
    const page = await open(1280);
    const svg = page.locator('#chart-devices svg');
    const hit = await page.locator('#chart-devices svg .hit').boundingBox();
    // A day of the demo's, five before the last.
    const aim = days.length - 6;
    await page.mouse.move(hit!.x + (hit!.width * aim) / (days.length - 1), hit!.y + hit!.height / 2);
    const tip = page.locator('#tip');
    expect(await tip.isVisible()).toBe(true);
    const at = Number(await svg.getAttribute('data-at'));
    expect(at).toBe(aim);
    const day = days[at]!;
    // The tooltip says the day's values, as the data table has them.
    const row = await page.locator('#chart-devices table tbody tr').nth(at).locator('th, td').allTextContents();
    expect(row[0]).toBe(day);
    expect(await tip.textContent()).toBe(`${day}detected: ${row[1]}authenticated: ${row[2]}`);
    expect(await page.locator('#chart-devices .crosshair').getAttribute('visibility')).toBe('visible');

    await svg.focus();
    await page.keyboard.press('End');
    expect(await tip.textContent()).toContain(lastDay);
    await page.keyboard.press('ArrowLeft');
    expect(await tip.textContent()).toContain(addDays(lastDay, -1));
    await page.keyboard.press('Escape');
    expect(await tip.isVisible()).toBe(false);

    const bar = page.locator('#chart-login-methods rect.mark').first();
    await bar.hover();
    expect(await tip.textContent()).toBe(await bar.getAttribute('data-tip'));
    expect(await tip.textContent()).toMatch(/^\S+: [\d,]+ \(\d+\.\d%\)$/);
    await page
      .locator('#chart-peak-hours rect.mark')
      .nth(24 * 4 + 12)
      .hover();
    expect(await tip.textContent()).toMatch(/^Fri 12:00 — [\d,.]+ devices detected per hour \(average\)$/);
    // The heatmap's colour scale: both ends and what the colour means.
    expect(await page.locator('#chart-peak-hours .colour-scale').textContent()).toMatch(/^0devices detected per hour \(average\)[\d,.]+$/);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('the range control changes every figure, and keeps the range in the address', async () => {
    const page = await open(1280);
    expect(await page.locator('#range-from').inputValue()).toBe(days[0]);
    const before = Strings.parse(await page.evaluate(FIGURES));
    const state = await page.locator('#health .scroll').allInnerTexts();
    expect(Object.keys(before).sort()).toEqual(['tiles', ...CHART_IDS].sort());
    // Only the early day: one venue's figures, another month.
    await page.fill('#range-to', early);
    await page.fill('#range-from', early);
    expect(await page.getAttribute('body', 'data-range')).toBe(`${early}..${early}`);
    const after = Strings.parse(await page.evaluate(FIGURES));
    for (const id of Object.keys(before)) expect(after[id], id).not.toBe(before[id]);
    // Freshness, runs and failed slices are the warehouse's state, not the range's.
    expect(await page.locator('#health .scroll').allInnerTexts()).toEqual(state);
    expect(await page.evaluate('location.hash')).toBe(`#from=${early}&to=${early}`);

    // The preset goes back to the last 7 days; a reload keeps the range the address names.
    await page.click('#range-presets button[data-days="7"]');
    expect(await page.getAttribute('body', 'data-range')).toBe(`${addDays(lastDay, -6)}..${lastDay}`);
    await page.reload();
    await page.waitForSelector('body[data-range]');
    expect(await page.getAttribute('body', 'data-range')).toBe(`${addDays(lastDay, -6)}..${lastDay}`);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('explains every partial and empty figure with the command that loads what is missing', async () => {
    const page = await open(1280);
    // The gap between the early day and the demo's days, and the months without summaries.
    const tiles = await page.locator('#tiles .card-note').allTextContents();
    expect(tiles).toHaveLength(5);
    for (const note of tiles) expect(note).toMatch(/^Partial: \d+ days missing\. venue-etl backfill --from \S+ --to \S+ --streams \S+$/);
    for (const id of [
      'chart-devices',
      'chart-logins',
      'chart-login-methods',
      'chart-rating-average',
      'chart-rating-funnel',
      'chart-embeds',
      'chart-peak-hours',
      'chart-ranking',
      'chart-coverage',
    ]) {
      expect(await page.locator(`#${id} .partial`).textContent(), id).toMatch(/venue-etl backfill --from \d{4}-\d\d-\d\d --to \d{4}-\d\d-\d\d/);
    }
    expect(await page.locator('#chart-peak-hours .partial').textContent()).toContain('--grain hour');

    // A venue without hourly rows: the grid gives way to what is missing and how to load it.
    await page.selectOption('#venue', String(venueIds.indexOf(venueIds[3]!)));
    const peak = await page.locator('#chart-peak-hours .empty').textContent();
    expect(peak).toContain(`--venues ${venueIds[3]} --grain hour`);
    expect(await page.locator('#chart-peak-hours svg').count()).toBe(0);

    // A range inside the gap: one message, no empty axes.
    await page.selectOption('#venue', '-1');
    await page.fill('#range-to', addDays(early, 5));
    await page.fill('#range-from', addDays(early, 1));
    expect(await page.locator('#no-data').textContent()).toContain(`No data from ${addDays(early, 1)} to ${addDays(early, 5)}`);
    expect(await page.locator('#no-data').textContent()).toContain(`venue-etl backfill --from ${addDays(early, 1)} --to ${addDays(early, 5)}`);
    expect(await page.locator('#devices, #users, #ratings, #remarketing, #peak, #venues').count()).toBe(0);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('a window with no data at all (in the future) is a message, with the venues still listed', async () => {
    const run = await runCli(['dashboard', '--out', join(demo.dir, 'future.html'), '--from', '2030-01-01', '--to', '2030-01-31', '--config', demo.config]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/no daily figures from 2030-01-01 to 2030-01-31/);
    const page = await open(390, 'future.html');
    const message = await page.locator('#no-data').textContent();
    expect(message).toContain('No data from 2030-01-01 to 2030-01-31');
    expect(message).toContain('after the page was made');
    expect(message).toContain('venue-etl backfill --from 2030-01-01 --to 2030-01-31');
    expect(await page.locator('#devices svg, #users svg, #ratings svg, #venues svg').count()).toBe(0);
    expect(await page.locator('#venue option').count()).toBe(13);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('data-health tables show readable column names and timestamps to the second', async () => {
    const page = await open(1280);
    const headers = await page.locator('#health .scroll table').nth(0).locator('thead th').allTextContents();
    expect(headers).toContain('Last moved (UTC)');
    expect(headers.some((h) => h.includes('_'))).toBe(false);
    const cells = (await page.locator('#health .scroll').allInnerTexts()).join('\n');
    expect(cells).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(cells).not.toMatch(/\d\d:\d\d:\d\d\.\d|T\d\d:\d\d/);
    await page.close();
  });
});
