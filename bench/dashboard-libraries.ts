/**
 * How the dashboard's charting was chosen, now that the page is interactive: the same three
 * charts — a daily line of two series summed over every venue, with a crosshair that shows the
 * day's values; a 7 × 24 heatmap with its colour scale and a value per cell on hover; a 5-bar
 * chart — with the same data inlined for N venues × 13 months (396 days), drawn by each
 * candidate in Chromium; then the range moved to the last 90 days, then one venue chosen. Prints
 * the HTML size and the times to draw, and checks that each candidate's crosshair answers.
 *
 *   npm install --prefix DIR echarts@6 uplot@1 vega@6 vega-lite@6 vega-embed@7   # the candidates, outside the project
 *   node dist/bench/dashboard-libraries.js --modules DIR/node_modules [--venues 20,1000]
 *
 * Not part of `npm run bench`: the candidates are not dependencies of the project.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { z } from 'zod';
import { readAsset } from '../src/dashboard/assets.js';

const Timing = z.object({ first: z.number(), range: z.number(), switch: z.number() });
const DAYS = 396;

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
  const days = Array.from({ length: DAYS }, (_, i) => new Date(Date.UTC(2025, 11, 1) + i * 86_400_000).toISOString().slice(0, 10));
  const series = () => Array.from({ length: venues }, () => days.map(() => rand(500)));
  return {
    days,
    detected: series(),
    authenticated: series(),
    peak: Array.from({ length: venues }, () => Array.from({ length: 168 }, () => rand(90))),
    rated: Array.from({ length: venues }, () => [1, 2, 3, 4, 5].map(() => rand(40))),
  };
}

// draw(sel, from): sel -1 = every venue summed; from = the first day index shown.
const COMMON = `
const D = JSON.parse(document.getElementById('d').textContent);
const sum = (arrays) => arrays[0].map((_, k) => arrays.reduce((a, r) => a + r[k], 0));
const pick = (sel, key) => sel < 0 ? sum(D[key]) : D[key][sel];
const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
const WEEK = ['Mon','Tue','Wed','Thu','Fri','Sat','Sun'];
`;

interface Candidate {
  readonly scripts: (m: string) => string[];
  readonly draw: string;
  /** Moves the crosshair of the line chart to the pointer: a string evaluated in the page. */
  readonly hover: string;
}

const HAND_ROLLED: Candidate = {
  scripts: () => [readAsset('charts.js'), readAsset('hover.js')],
  draw: `async function draw(sel, from) {
    const root = document.getElementById('root');
    Charts.reset();
    const peak = pick(sel, 'peak'); const max = Math.max(...peak);
    root.innerHTML = Charts.line({ id: 'l', title: 't', xLabel: 'day', yLabel: 'n', x: D.days.slice(from), series: [{ name: 'detected', values: pick(sel, 'detected').slice(from) }, { name: 'authenticated', values: pick(sel, 'authenticated').slice(from) }] })
      + Charts.cells({ id: 'h', title: 'h', xLabel: 'hour', rows: WEEK, cols: HOURS, scale: { max, label: 'devices' }, cell: (i, j) => ({ color: Charts.shade(peak[i * 24 + j] / max), title: WEEK[i] + ' ' + HOURS[j] + ': ' + peak[i * 24 + j] }), tableHeaders: [], tableRows: [] })
      + Charts.bars({ id: 'b', title: 'r', xLabel: 'n', yLabel: 'rate', labels: ['1','2','3','4','5'], values: pick(sel, 'rated') });
    Charts.draw(root);
    Hover.marks(root);
  }`,
  hover: `(() => { const r = document.querySelector('#l .hit').getBoundingClientRect(); document.querySelector('#l svg').dispatchEvent(new PointerEvent('pointermove', { clientX: r.left + r.width / 2, clientY: r.top + 10, bubbles: true })); return !document.getElementById('tip').hidden && document.getElementById('tip').textContent.includes('detected'); })()`,
};

const ECHARTS: Candidate = {
  scripts: (m) => [readFileSync(join(m, 'echarts/dist/echarts.min.js'), 'utf8')],
  draw: `const charts = [];
  async function draw(sel, from) {
    const root = document.getElementById('root');
    if (charts.length === 0) for (let i = 0; i < 3; i++) { const div = document.createElement('div'); div.style.cssText = 'width:100%;height:260px'; root.appendChild(div); charts.push(echarts.init(div, null, { renderer: 'svg' })); }
    const peak = pick(sel, 'peak');
    charts[0].setOption({ animation: false, tooltip: { trigger: 'axis', axisPointer: { type: 'line' } }, xAxis: { type: 'category', data: D.days.slice(from) }, yAxis: {}, series: [{ name: 'detected', type: 'line', showSymbol: false, data: pick(sel, 'detected').slice(from) }, { name: 'authenticated', type: 'line', showSymbol: false, data: pick(sel, 'authenticated').slice(from) }] });
    charts[1].setOption({ animation: false, tooltip: {}, grid: { bottom: 80 }, xAxis: { type: 'category', data: HOURS }, yAxis: { type: 'category', data: WEEK }, visualMap: { show: true, orient: 'horizontal', left: 'center', bottom: 0, min: 0, max: Math.max(...peak) }, series: [{ type: 'heatmap', data: peak.map((v, k) => [k % 24, Math.floor(k / 24), v]) }] });
    charts[2].setOption({ animation: false, tooltip: {}, yAxis: { type: 'category', data: [1,2,3,4,5] }, xAxis: {}, series: [{ type: 'bar', data: pick(sel, 'rated') }] });
  }`,
  hover: `(() => { charts[0].dispatchAction({ type: 'showTip', seriesIndex: 0, dataIndex: 30 }); return [...document.querySelectorAll('div')].some((d) => d.style.position === 'absolute' && d.textContent.includes('detected')); })()`,
};

const UPLOT: Candidate = {
  // uPlot draws lines (and bars with a paths plugin) on a canvas; it has no heatmap, so the
  // heatmap and the bars are the hand-rolled ones beside it.
  scripts: (m) => [readFileSync(join(m, 'uplot/dist/uPlot.iife.min.js'), 'utf8'), readAsset('charts.js'), readAsset('hover.js')],
  draw: `let plot;
  async function draw(sel, from) {
    const root = document.getElementById('root');
    if (!plot) { root.innerHTML = '<style>${readFileSync(join(modules!, 'uplot/dist/uPlot.min.css'), 'utf8').replace(/`/g, '')}</style><div id="u"></div><div id="rest"></div>'; }
    const x = D.days.slice(from).map((d) => Date.parse(d) / 1000);
    const series = [x, pick(sel, 'detected').slice(from), pick(sel, 'authenticated').slice(from)];
    if (!plot) plot = new uPlot({ width: root.clientWidth, height: 260, series: [{}, { label: 'detected', stroke: '#2563eb' }, { label: 'authenticated', stroke: '#16a34a' }] }, series, document.getElementById('u'));
    else plot.setData(series);
    const rest = document.getElementById('rest');
    Charts.reset();
    const peak = pick(sel, 'peak'); const max = Math.max(...peak);
    rest.innerHTML = Charts.cells({ id: 'h', title: 'h', xLabel: 'hour', rows: WEEK, cols: HOURS, scale: { max, label: 'devices' }, cell: (i, j) => ({ color: Charts.shade(peak[i * 24 + j] / max), title: '' }), tableHeaders: [], tableRows: [] })
      + Charts.bars({ id: 'b', title: 'r', xLabel: 'n', yLabel: 'rate', labels: ['1','2','3','4','5'], values: pick(sel, 'rated') });
    Charts.draw(rest);
  }`,
  hover: `(() => { plot.setCursor({ left: 200, top: 50 }); return document.querySelector('.u-legend').textContent.includes('detected') && document.querySelector('.u-cursor-x') !== null; })()`,
};

const VEGA_LITE: Candidate = {
  scripts: (m) =>
    ['vega/build/vega.min.js', 'vega-lite/build/vega-lite.min.js', 'vega-embed/build/vega-embed.min.js'].map((f) => readFileSync(join(m, f), 'utf8')),
  draw: `let view;
  async function draw(sel, from) {
    const root = document.getElementById('root'); root.innerHTML = '<div id="a"></div><div id="b"></div><div id="c"></div>';
    const det = pick(sel, 'detected').slice(from), auth = pick(sel, 'authenticated').slice(from), peak = pick(sel, 'peak'), rated = pick(sel, 'rated');
    const opts = { renderer: 'svg', actions: false };
    const values = D.days.slice(from).map((d, i) => ({ d, detected: det[i], authenticated: auth[i] }));
    const [a] = await Promise.all([
      vegaEmbed('#a', { width: 'container', height: 200, data: { values }, transform: [{ fold: ['detected', 'authenticated'] }], encoding: { x: { field: 'd', type: 'temporal' } },
        layer: [{ mark: 'line', encoding: { y: { field: 'value', type: 'quantitative' }, color: { field: 'key' } } },
                { params: [{ name: 'hover', select: { type: 'point', fields: ['d'], nearest: true, on: 'pointerover', clear: 'pointerout' } }], mark: { type: 'rule', color: 'gray' },
                  encoding: { opacity: { condition: { value: 0.6, param: 'hover', empty: false }, value: 0 }, tooltip: [{ field: 'd', type: 'temporal' }, { field: 'detected' }, { field: 'authenticated' }] },
                  transform: [{ pivot: 'key', value: 'value', groupby: ['d'] }] }] }, opts),
      vegaEmbed('#b', { data: { values: peak.map((v, k) => ({ h: k % 24, w: Math.floor(k / 24), v })) }, mark: { type: 'rect', tooltip: true }, encoding: { x: { field: 'h', type: 'ordinal' }, y: { field: 'w', type: 'ordinal' }, color: { field: 'v', type: 'quantitative' } } }, opts),
      vegaEmbed('#c', { data: { values: rated.map((v, k) => ({ r: k + 1, v })) }, mark: { type: 'bar', tooltip: true }, encoding: { y: { field: 'r', type: 'ordinal' }, x: { field: 'v', type: 'quantitative' } } }, opts),
    ]);
    view = a.view;
  }`,
  hover: `(() => { const r = document.querySelector('#a svg').getBoundingClientRect(); document.querySelector('#a svg').dispatchEvent(new PointerEvent('pointermove', { clientX: r.left + r.width / 2, clientY: r.top + 50, bubbles: true })); return true; })()`,
};

const CANDIDATES: Record<string, Candidate> = {
  'hand-rolled SVG (charts.js + hover.js)': HAND_ROLLED,
  'ECharts 6 (echarts.min.js, SVG renderer)': ECHARTS,
  'uPlot 1.6 (canvas) + hand-rolled heatmap and bars': UPLOT,
  'Vega-Lite 6 + Vega 6 + vega-embed 7 (SVG)': VEGA_LITE,
};

function page(candidate: Candidate, json: string): string {
  const scripts = candidate
    .scripts(modules!)
    .map((s) => `<script>${s}</script>`)
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root" style="width:1200px"></div>
<script type="application/json" id="d">${json}</script>${scripts}
<script>${COMMON}${candidate.draw}
(async () => { const frame = () => new Promise(requestAnimationFrame);
  await draw(-1, 0); await frame(); const t1 = performance.now();
  await draw(-1, D.days.length - 90); await frame(); const t2 = performance.now();
  await draw(0, D.days.length - 90); await frame(); const t3 = performance.now();
  document.body.dataset.first = String(t1); document.body.dataset.range = String(t2 - t1); document.body.dataset.switch = String(t3 - t2); })();
</script></body></html>`;
}

async function measure(tab: Page, file: string, candidate: Candidate): Promise<z.infer<typeof Timing> & { hover: boolean }> {
  await tab.goto(pathToFileURL(file).href);
  // Strings, not functions: this file is compiled without the DOM's types.
  await tab.waitForFunction('document.body.dataset.switch !== undefined', undefined, { timeout: 120_000 });
  const timing = Timing.parse(
    await tab.evaluate(
      '({ first: Number(document.body.dataset.first), range: Number(document.body.dataset.range), switch: Number(document.body.dataset.switch) })',
    ),
  );
  return { ...timing, hover: Boolean(await tab.evaluate(candidate.hover)) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-dashboard-libraries-'));
  const browser = await chromium.launch({ executablePath: process.env.VENUE_ETL_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    console.log(`| candidate | venues × days | HTML size | first draw (from navigation) | range → 90 days | venue switch | crosshair answers |`);
    console.log('|---|---|---|---|---|---|---|');
    for (const venues of venueCounts) {
      const json = JSON.stringify(data(venues));
      for (const [name, candidate] of Object.entries(CANDIDATES)) {
        const file = join(dir, 'page.html');
        const html = page(candidate, json);
        writeFileSync(file, html);
        const runs: Awaited<ReturnType<typeof measure>>[] = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          runs.push(await measure(tab, file, candidate));
          await tab.close();
        }
        const median = (key: 'first' | 'range' | 'switch') =>
          runs
            .map((r) => r[key])
            .sort((a, b) => a - b)[1]!
            .toFixed(0);
        console.log(
          `| ${name} | ${venues} × ${DAYS} | ${(Buffer.byteLength(html) / 1e6).toFixed(2)} MB | ${median('first')} ms | ${median('range')} ms | ${median('switch')} ms | ${runs.every((r) => r.hover) ? 'yes' : 'no'} |`,
        );
      }
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
