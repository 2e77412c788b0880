/**
 * Metrics end to end with the real parts: a real Prometheus scrapes serve's /metrics, and a real
 * Pushgateway receives the pushes of batch runs (two shards of one job, then a failing night);
 * the tests ask Prometheus's and the Pushgateway's HTTP APIs for the series.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { freePort } from '../free-port.js';
import { startServe, writeServeConfig, type Serve } from '../serve/serve-child.js';
import { eventually, query, startPrometheus, startPushgateway, type Running } from './prometheus.js';

let fx: Fixture | undefined;
let serve: Serve | undefined;
const started: Running[] = [];

beforeAll(assertBuilt);
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  serve = undefined;
  for (const part of started.splice(0)) await part.stop();
  await fx?.close();
  fx = undefined;
});

describe('serve scraped by a real Prometheus', () => {
  it('exposes runs, requests, rows, freshness and the receiver at /metrics, never on the receiver port', async () => {
    fx = await startFixture({ sim: { venues: 2 }, config: { sync: { startDate: addDays(todayUtc(), -6) } } });
    const receiverPort = await freePort();
    const metricsPort = await freePort();
    const path = writeServeConfig(fx, receiverPort, { 'nightly-sync': '* * * * * *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
    const config = JSON.parse(readFileSync(path, 'utf8'));
    config.metrics = { enabled: true, host: '127.0.0.1', port: metricsPort };
    writeFileSync(path, JSON.stringify(config));
    serve = await startServe(fx, path, receiverPort);
    // honor_labels: the metrics' own `job` label (the venue-etl job) wins over the scrape job's, as in deploy/prometheus.
    const prometheus = await startPrometheus([{ job: 'venue-etl', target: `127.0.0.1:${metricsPort}`, honorLabels: true }]);
    started.push(prometheus);

    const runs = await eventually('a scraped succeeded nightly-sync', async () => {
      const found = await query(prometheus, 'venue_etl_runs_total{job="nightly-sync",status="succeeded"} > 0');
      return found.length > 0 ? found : undefined;
    }).catch(async (error: Error) => {
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text().catch(String);
      throw new Error(
        `${error.message}\n--- /metrics\n${metrics.slice(0, 3000)}\n--- serve\n${serve!.stderr().slice(-3000)}\n--- prometheus\n${prometheus.output().slice(-2000)}`,
      );
    });
    expect(runs[0]!.metric).toMatchObject({ job: 'nightly-sync', instance: `127.0.0.1:${metricsPort}` });
    const ok = await query(prometheus, 'sum by (stream) (venue_etl_api_requests_total{outcome="ok"})');
    expect(ok.map((s) => s.metric.stream)).toContain('venue-devices-history');
    const rows = await query(prometheus, 'sum(venue_etl_rows_written_total{table="series_points"})');
    expect(Number(rows[0]!.value[1])).toBeGreaterThan(0);
    const age = await query(prometheus, 'venue_etl_stream_data_age_seconds{stream="venue-devices-history"}');
    // The newest loaded day is yesterday: its end was less than a day ago.
    expect(Number(age[0]!.value[1])).toBeLessThan(86_400);
    const stale = await query(prometheus, 'max(venue_etl_stream_stale)');
    expect(stale[0]!.value[1]).toBe('0');
    expect(await query(prometheus, 'venue_etl_receiver_journal_max_bytes')).toHaveLength(1);
    expect(await query(prometheus, 'venue_etl_last_success_timestamp_seconds{job="nightly-sync"}')).toHaveLength(1);

    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/^# TYPE venue_etl_runs_total counter$/m);
    expect(text).toMatch(/^# TYPE venue_etl_stream_data_age_seconds gauge$/m);
    expect((await fetch(`http://127.0.0.1:${receiverPort}/metrics`)).status).toBe(404);
    const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).json()) as { status: string; streams: { stale: string[] } };
    expect(health).toMatchObject({ status: 'ok', streams: { stale: [] } });
  }, 180_000);
});

describe('batch runs pushed to a real Pushgateway', () => {
  interface Group {
    labels: Record<string, string>;
    [metric: string]: unknown;
  }
  const groups = async (gateway: Running): Promise<Group[]> => ((await (await fetch(`${gateway.url}/api/v1/metrics`)).json()) as { data: Group[] }).data;
  const gauge = (group: Group, name: string, labels: Record<string, string> = {}): number | undefined => {
    const family = group[name] as { metrics: { labels: Record<string, string>; value: string }[] } | undefined;
    const found = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v));
    return found === undefined ? undefined : Number(found.value);
  };

  it('groups by job, instance and shard; a failing night keeps the last success time', async () => {
    fx = await startFixture({ sim: { venues: 4 }, config: { sync: { startDate: addDays(todayUtc(), -4) } } });
    const gateway = await startPushgateway();
    started.push(gateway);
    fx.writeConfig({ api: { maxRetries: 1 }, blocks: { metrics: { pushgateway: gateway.url, instance: 'worker-a' } } });
    for (const shard of ['0/2', '1/2']) {
      const run = await fx.cli(['sync', '--shard', shard]);
      expect(run.code, describeRun(run)).toBe(0);
    }
    const pushed = (await groups(gateway)).filter((g) => g.labels.job === 'sync');
    expect(pushed.map((g) => [g.labels.instance, g.labels.shard]).sort()).toEqual([
      ['worker-a', '0/2'],
      ['worker-a', '1/2'],
    ]);
    const first = pushed.find((g) => g.labels.shard === '0/2')!;
    const success = gauge(first, 'venue_etl_last_success_timestamp_seconds');
    expect(success).toBeGreaterThan(0);
    expect(gauge(first, 'venue_etl_runs_total', { status: 'succeeded' })).toBe(1);

    // The export is a batch command too: its own group, rows by Parquet table.
    const exported = await fx.cli(['export']);
    expect(exported.code, describeRun(exported)).toBe(0);
    const exportGroup = (await groups(gateway)).find((g) => g.labels.job === 'export')!;
    expect(exportGroup.labels).toMatchObject({ instance: 'worker-a', shard: 'none' });
    expect(gauge(exportGroup, 'venue_etl_rows_written_total', { table: 'series_points' })).toBeGreaterThan(0);

    fx.sim.setFaults('500=1');
    const failing = await fx.cli(['sync', '--shard', '0/2']);
    expect(failing.code, describeRun(failing)).toBe(1);
    const after = (await groups(gateway)).find((g) => g.labels.job === 'sync' && g.labels.shard === '0/2')!;
    expect(gauge(after, 'venue_etl_last_run_outcome', { outcome: 'failed' })).toBe(1);
    expect(gauge(after, 'venue_etl_runs_total', { status: 'failed' })).toBe(1);
    expect(gauge(after, 'venue_etl_last_success_timestamp_seconds')).toBe(success);

    // Prometheus scraping the Pushgateway sees each shard's series under the run's own labels.
    const prometheus = await startPrometheus([{ job: 'pushgateway', target: gateway.url.replace('http://', ''), honorLabels: true }]);
    started.push(prometheus);
    const failed = await eventually('the failed shard in Prometheus', async () => {
      const found = await query(prometheus, 'venue_etl_last_run_outcome{outcome="failed"} == 1');
      return found.length > 0 ? found : undefined;
    });
    expect(failed.map((s) => [s.metric.job, s.metric.instance, s.metric.shard])).toEqual([['sync', 'worker-a', '0/2']]);
  }, 180_000);
});
