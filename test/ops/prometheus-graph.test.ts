/**
 * Prometheus's own graph page, in Chromium, plotting two venue-etl metrics scraped from a real
 * serve: API requests by stream and the age of each stream's data. The page must show the
 * series by name. With VENUE_ETL_WRITE_SCREENSHOTS=1 the screenshots are written to docs/
 * (docs/operations.md shows them); otherwise to a temp dir.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../dashboard/browser.js';
import { addDays, assertBuilt, REPO_ROOT, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { freePort } from '../free-port.js';
import { startServe, writeServeConfig, type Serve } from '../serve/serve-child.js';
import { eventually, query, startPrometheus, type Running } from './prometheus.js';

const WRITE = process.env.VENUE_ETL_WRITE_SCREENSHOTS === '1';
let fx: Fixture;
let serve: Serve;
let prometheus: Running;
let out: string;

beforeAll(async () => {
  assertBuilt();
  out = WRITE ? join(REPO_ROOT, 'docs') : mkdtempSync(join(tmpdir(), 'venue-etl-graph-'));
  fx = await startFixture({ sim: { venues: 3, latencyMs: 20 }, config: { sync: { startDate: addDays(todayUtc(), -10) } } });
  fx.sim.setFaults('429=0.05,500=0.03');
  const receiverPort = await freePort();
  const metricsPort = await freePort();
  const path = writeServeConfig(fx, receiverPort, { 'nightly-sync': '*/5 * * * * *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
  const config = JSON.parse(readFileSync(path, 'utf8'));
  config.metrics = { enabled: true, host: '127.0.0.1', port: metricsPort };
  config.freshness = { streams: { 'venue-roles': 1 } };
  writeFileSync(path, JSON.stringify(config));
  serve = await startServe(fx, path, receiverPort);
  prometheus = await startPrometheus([{ job: 'venue-etl-serve', target: `127.0.0.1:${metricsPort}`, honorLabels: true }]);
}, 120_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await prometheus?.stop();
  await fx?.close();
  if (!WRITE && out) rmSync(out, { recursive: true, force: true });
});

describe("Prometheus's graph page", () => {
  it('plots API requests by stream and outcome, and the age of each stream', async () => {
    // A few runs' worth of samples, so the graph has lines rather than dots.
    await eventually(
      'three nightly-sync runs scraped',
      async () => {
        const [runs] = await query(prometheus, 'sum(venue_etl_runs_total{job="nightly-sync"})');
        return runs && Number(runs.value[1]) >= 3 ? true : undefined;
      },
      120_000,
    );
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const graphs = [
        { file: 'prometheus-api-requests.png', expr: 'sum by (stream, outcome) (venue_etl_api_requests_total{stream=~"venue-devices-.*"})' },
        { file: 'prometheus-data-age.png', expr: 'venue_etl_stream_data_age_seconds / 3600' },
      ];
      for (const graph of graphs) {
        const url = `${prometheus.url}/graph?g0.expr=${encodeURIComponent(graph.expr)}&g0.tab=0&g0.range_input=2m`;
        await page.goto(url);
        // Prometheus 2.x's graph page: the plot, then a legend naming every series.
        const legend = page.locator('.rickshaw_legend');
        await legend.filter({ hasText: 'venue-devices-history' }).waitFor({ timeout: 60_000 });
        await page.waitForTimeout(1_000);
        expect(await legend.innerText()).toMatch(graph.file.includes('age') ? /venue-devices-history/ : /outcome="ok"/);
        await page.screenshot({ path: join(out, graph.file) });
      }
    } finally {
      await browser.close();
    }
  }, 240_000);
});
