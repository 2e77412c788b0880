/**
 * How the dashboard's charting was chosen: the same three charts (a daily line of two series
 * summed over every venue, a 7 × 24 heatmap, a bar chart of five values), with the same data
 * inlined for N venues × 365 days, drawn by each candidate in Chromium; then one venue chosen
 * and drawn again. Prints the HTML size and the time to draw.
 *
 *   npm install --prefix DIR echarts@6 vega@6 vega-lite@6 vega-embed@7   # the candidates, outside the project
 *   node dist/bench/dashboard-libraries.js --modules DIR/node_modules [--venues 20,1000]
 *
 * Not part of `npm run bench`: the candidates are not dependencies of the project.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { z } from 'zod';
import { readAsset } from '../src/dashboard/assets.js';

const Timing = z.object({ first: z.number(), switch: z.number(), marks: z.number() });

const args = process.argv.slice(2);
const modules = args[args.indexOf('--modules') + 1];
const venueCounts = (args.includes('--venues') ? args[args.indexOf('--venues') + 1]! : '20,1000').split(',').map(Number);
if (!modules || !args.includes('--modules')) throw new Error('pass --modules DIR/node_modules (see the comment at the top of this file)');

/** Synthetic counts with the shape of the real page's data: per venue, per day. */
function data(venues: number): unknown {
  let seed = 1;
  const rand = (n: number): number => {
    seed = (seed * 16807) % 2147483647;
    return seed % n;
  };
  const days = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
  const series = () => Array.from({ length: venues }, () => days.map(() => rand(500)));
  return {
    days,
    detected: series(),
    authenticated: series(),
    peak: Array.from({ length: venues }, () => Array.from({ length: 168 }, () => rand(90))),
    rated: Array.from({ length: venues }, () => [1, 2, 3, 4, 5].map(() => rand(40))),
  };
}

const COMMON = `
const D = JSON.parse(document.getElementById('d').textContent);
const sum = (arrays) => arrays[0].map((_, k) => arrays.reduce((a, r) => a + r[k], 0));
const pick = (sel, key) => sel < 0 ? sum(D[key]) : D[key][sel];
`;

const CANDIDATES: Record<string, { scripts: (m: string) => string[]; draw: string }> = {
  'hand-rolled SVG (charts.js)': {
    scripts: () => [readAsset('charts.js')],
    draw: `async function draw(sel) {
      const root = document.getElementById('root');
      const peak = pick(sel, 'peak'); const max = Math.max(...peak);
      root.innerHTML = Charts.line({ title: 't', xLabel: 'day', yLabel: 'n', x: D.days, series: [{ name: 'detected', values: pick(sel, 'detected') }, { name: 'authenticated', values: pick(sel, 'authenticated') }] })
        + Charts.cells({ title: 'h', xLabel: 'hour', rows: ['1','2','3','4','5','6','7'], cols: Array.from({ length: 24 }, (_, h) => String(h)), cell: (i, j) => ({ color: Charts.shade(peak[i * 24 + j] / max), title: '' }), tableHeaders: [], tableRows: [] })
        + Charts.bars({ title: 'r', xLabel: 'n', yLabel: 'rate', labels: ['1','2','3','4','5'], values: pick(sel, 'rated') });
    }`,
  },
  'ECharts 6 (echarts.min.js, SVG renderer)': {
    scripts: (m) => [readFileSync(join(m, 'echarts/dist/echarts.min.js'), 'utf8')],
    draw: `const charts = [];
    async function draw(sel) {
      const root = document.getElementById('root');
      if (charts.length === 0) for (let i = 0; i < 3; i++) { const div = document.createElement('div'); div.style.cssText = 'width:720px;height:240px'; root.appendChild(div); charts.push(echarts.init(div, null, { renderer: 'svg' })); }
      const peak = pick(sel, 'peak');
      charts[0].setOption({ animation: false, xAxis: { type: 'category', data: D.days }, yAxis: {}, series: [{ type: 'line', showSymbol: false, data: pick(sel, 'detected') }, { type: 'line', showSymbol: false, data: pick(sel, 'authenticated') }] });
      charts[1].setOption({ animation: false, xAxis: { type: 'category', data: Array.from({ length: 24 }, (_, h) => h) }, yAxis: { type: 'category', data: [1,2,3,4,5,6,7] }, visualMap: { show: false, min: 0, max: Math.max(...peak) }, series: [{ type: 'heatmap', data: peak.map((v, k) => [k % 24, Math.floor(k / 24), v]) }] });
      charts[2].setOption({ animation: false, yAxis: { type: 'category', data: [1,2,3,4,5] }, xAxis: {}, series: [{ type: 'bar', data: pick(sel, 'rated') }] });
    }`,
  },
  'Vega-Lite 6 + Vega 6 + vega-embed 7 (SVG renderer)': {
    scripts: (m) =>
      ['vega/build/vega.min.js', 'vega-lite/build/vega-lite.min.js', 'vega-embed/build/vega-embed.min.js'].map((f) => readFileSync(join(m, f), 'utf8')),
    draw: `async function draw(sel) {
      const root = document.getElementById('root'); root.innerHTML = '<div id="a"></div><div id="b"></div><div id="c"></div>';
      const det = pick(sel, 'detected'), auth = pick(sel, 'authenticated'), peak = pick(sel, 'peak'), rated = pick(sel, 'rated');
      const opts = { renderer: 'svg', actions: false };
      await Promise.all([
        vegaEmbed('#a', { width: 640, height: 200, data: { values: D.days.flatMap((d, i) => [{ d, v: det[i], s: 'detected' }, { d, v: auth[i], s: 'authenticated' }]) }, mark: 'line', encoding: { x: { field: 'd', type: 'temporal' }, y: { field: 'v', type: 'quantitative' }, color: { field: 's' } } }, opts),
        vegaEmbed('#b', { data: { values: peak.map((v, k) => ({ h: k % 24, w: Math.floor(k / 24), v })) }, mark: 'rect', encoding: { x: { field: 'h', type: 'ordinal' }, y: { field: 'w', type: 'ordinal' }, color: { field: 'v', type: 'quantitative' } } }, opts),
        vegaEmbed('#c', { data: { values: rated.map((v, k) => ({ r: k + 1, v })) }, mark: 'bar', encoding: { y: { field: 'r', type: 'ordinal' }, x: { field: 'v', type: 'quantitative' } } }, opts),
      ]);
    }`,
  },
};

function page(candidate: (typeof CANDIDATES)[string], json: string): string {
  const scripts = candidate
    .scripts(modules!)
    .map((s) => `<script>${s}</script>`)
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div>
<script type="application/json" id="d">${json}</script>${scripts}
<script>${COMMON}${candidate.draw}
(async () => { const t0 = performance.now(); await draw(-1); await new Promise(requestAnimationFrame); const t1 = performance.now();
  await draw(0); await new Promise(requestAnimationFrame); const t2 = performance.now();
  document.body.dataset.first = String(t1); document.body.dataset.switch = String(t2 - t1); document.body.dataset.marks = String(document.querySelectorAll('svg path, svg rect').length); })();
</script></body></html>`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-dashboard-libraries-'));
  const browser = await chromium.launch({ executablePath: process.env.VENUE_ETL_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    console.log('| candidate | venues | HTML size | first draw (from navigation) | venue switch | marks |');
    console.log('|---|---|---|---|---|---|');
    for (const venues of venueCounts) {
      const json = JSON.stringify(data(venues));
      for (const [name, candidate] of Object.entries(CANDIDATES)) {
        const file = join(dir, 'page.html');
        const html = page(candidate, json);
        writeFileSync(file, html);
        const runs: { first: number; switch: number; marks: number }[] = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
          await tab.goto(pathToFileURL(file).href);
          // Strings, not functions: this file is compiled without the DOM's types.
          await tab.waitForFunction('document.body.dataset.switch !== undefined', undefined, { timeout: 60_000 });
          const timing: unknown = await tab.evaluate(
            '({ first: Number(document.body.dataset.first), switch: Number(document.body.dataset.switch), marks: Number(document.body.dataset.marks) })',
          );
          runs.push(Timing.parse(timing));
          await tab.close();
        }
        const median = (key: 'first' | 'switch') => runs.map((r) => r[key]).sort((a, b) => a - b)[1]!;
        console.log(
          `| ${name} | ${venues} | ${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB | ${median('first').toFixed(0)} ms | ${median('switch').toFixed(0)} ms | ${runs[0]!.marks} |`,
        );
      }
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
