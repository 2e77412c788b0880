/**
 * Bounded work in flight: against a slow API (a proxy in front of the simulator that holds every
 * answer), a run works on at most `maxChainsInFlight` chains at once, however many it has
 * planned, and still loads every slice of the plan.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { requireApi, resolveConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { backfillChains } from '../../src/plan/index.js';
import { executeRun } from '../../src/runner/execute-run.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { openWarehouse } from '../../src/warehouse/index.js';

const TODAY = '2026-03-01';
const FROM = '2026-02-01';
const TO = '2026-02-20';
const STREAM = 'venue-devices-history';
const CAP = 3;

let sim: Simulator;
let proxy: Server;
let proxyUrl: string;
let dir: string;
/** Venues with a request held by the proxy right now, and the most seen at once. */
const inFlight = new Map<string, number>();
let mostVenuesAtOnce = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-chains-in-flight-'));
  sim = await startSimulator({ venues: 12, days: 60, today: TODAY });
  proxy = createServer((req, res) => {
    // /analytics/<stream>/<venue>/?from=…: one venue per chain of this plan.
    const venue = (req.url ?? '').split('/')[3] ?? '';
    inFlight.set(venue, (inFlight.get(venue) ?? 0) + 1);
    mostVenuesAtOnce = Math.max(mostVenuesAtOnce, inFlight.size);
    void (async () => {
      try {
        await sleep(30);
        const answer = await fetch(`${sim.url}${req.url ?? '/'}`, {
          headers: { authorization: req.headers.authorization ?? '', accept: req.headers.accept ?? '' },
        });
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      } finally {
        const left = (inFlight.get(venue) ?? 1) - 1;
        if (left === 0) inFlight.delete(venue);
        else inFlight.set(venue, left);
      }
    })();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('works on at most maxChainsInFlight chains at once against a slow API, and loads every slice', async () => {
  const venues = sim.world.venues.map((venue) => venue.id);
  const config = requireApi(resolveConfig({ api: { baseUrl: proxyUrl, token: sim.token, concurrency: 16 }, scope: { venues } }, {}));
  const catalogue = buildCatalogue(config.endpoints);
  const input = { catalogue, streams: [STREAM], venues, projects: [], from: FROM, to: TO, today: TODAY, windowDays: 7, grains: ['day' as const] };
  const logger = createLogger({ level: 'silent' });
  const client = createApiClient({ baseUrl: proxyUrl, token: sim.token, concurrency: 16, timeoutMs: 10_000, maxRetries: 0, maxRetryAfterMs: 1_000, logger });
  const warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
  try {
    const result = await executeRun({
      job: 'backfill',
      config,
      catalogue,
      logger,
      client,
      warehouse,
      chains: () => backfillChains(input),
      maxChainsInFlight: CAP,
      cursorFor: (slice) => ({ mode: 'advance', date: slice.windowTo }),
    });
    expect(result.status, result.fatal).toBe('succeeded');
    // 12 venues x 3 windows (7, 7 and 6 days): every slice done, with 64 requests allowed at once.
    expect(result.slices).toMatchObject({ total: 36, done: 36, failed: 0, skipped: 0 });
    expect(mostVenuesAtOnce).toBeGreaterThan(0);
    expect(mostVenuesAtOnce).toBeLessThanOrEqual(CAP);
    const [row] = await warehouse.query<{ venues: bigint }>(`SELECT count(DISTINCT venue_id) AS venues FROM series_points WHERE stream = '${STREAM}'`);
    expect(Number(row?.venues)).toBe(12);
  } finally {
    await warehouse.close();
    await client.close();
  }
});
