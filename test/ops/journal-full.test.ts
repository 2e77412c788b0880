/**
 * receiver.journal_full end to end: serve's receiver, its warehouse held by another process so
 * no merge can take events, fills its journal (1 MiB) from the simulator's sender; the first
 * 503 sends one receiver.journal_full to the webhook, and /metrics counts the refusals.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendEvents } from '../../src/simulator/index.js';
import { assertBuilt, startFixture, type Fixture } from '../e2e/harness.js';
import { freePort } from '../free-port.js';
import { holdWarehouseLock } from '../receiver/helpers.js';
import { AUTH, startServe, writeServeConfig, type Serve } from '../serve/serve-child.js';
import { startHookServer, type HookServer } from './hook-server.js';
import { eventually } from './prometheus.js';

let fx: Fixture | undefined;
let serve: Serve | undefined;
let hooks: HookServer | undefined;
let release: (() => Promise<void>) | undefined;

beforeAll(assertBuilt);
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGKILL');
    await serve.exited;
  }
  await release?.();
  await hooks?.close();
  await fx?.close();
  serve = undefined;
  release = undefined;
  hooks = undefined;
  fx = undefined;
});

describe('receiver.journal_full', () => {
  it('is sent once when the journal fills while the warehouse is held, and counted in /metrics', async () => {
    fx = await startFixture({ sim: { venues: 2 } });
    hooks = await startHookServer();
    const receiverPort = await freePort();
    const metricsPort = await freePort();
    const path = writeServeConfig(fx, receiverPort, { 'nightly-sync': '0 0 1 1 *', 'roles-snapshot': '0 0 1 1 *', 'parquet-export': '0 0 1 1 *' });
    const config = JSON.parse(readFileSync(path, 'utf8'));
    config.receiver.maxJournalBytes = 1_048_576;
    config.receiver.maxBodyBytes = 65_536;
    config.metrics = { enabled: true, host: '127.0.0.1', port: metricsPort };
    config.notify = { webhooks: [{ name: 'ops', url: `${hooks.url}/ops`, events: ['receiver.journal_full'] }], retryForMs: 5_000 };
    writeFileSync(path, JSON.stringify(config));
    mkdirSync(dirname(fx.warehousePath), { recursive: true });
    const held = await holdWarehouseLock(fx.warehousePath);
    release = () => held.release();
    serve = await startServe(fx, path, receiverPort);

    const sent = await sendEvents({
      receiverBaseUrl: `http://127.0.0.1:${receiverPort}`,
      authorization: AUTH,
      world: fx.sim.world,
      count: 3_000,
      concurrency: 8,
      maxAttempts: 1,
      deadlineMs: 120_000,
    });
    expect(sent.stats.statuses['503'] ?? 0, JSON.stringify(sent.stats)).toBeGreaterThan(0);
    const [alert] = await eventually(
      'a receiver.journal_full notification',
      async () => (hooks!.on('/ops').length > 0 ? hooks!.on('/ops') : undefined),
      30_000,
    );
    expect(alert!.json).toMatchObject({ version: 1, event: 'receiver.journal_full', receiver: { maxJournalBytes: 1_048_576 } });
    expect((alert!.json.receiver as { refused: number }).refused).toBeGreaterThan(0);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const refused = Number(/^venue_etl_receiver_events_refused_journal_full_total (\d+)$/m.exec(metrics)?.[1]);
    expect(refused).toBeGreaterThan(0);
    expect(metrics).toMatch(/^venue_etl_receiver_journal_bytes \d+/m);
    // More refusals in the same episode send nothing more.
    await sendEvents({ receiverBaseUrl: `http://127.0.0.1:${receiverPort}`, authorization: AUTH, world: fx.sim.world, seed: 9, count: 50, maxAttempts: 1 });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(hooks.on('/ops')).toHaveLength(1);
  }, 240_000);
});
