import { copyFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type Config } from '../../src/config/index.js';
import { SCRIPT_FILES } from '../../src/dashboard/assets.js';
import { createLogger } from '../../src/log/index.js';
import { startServe } from '../../src/scheduler/serve.js';
import { acquireInstance, releaseInstance } from '../../src/warehouse/instances.js';
import { demoWarehouse, embeddedData, onFile, type DemoWarehouse } from './fixture.js';

let demo: DemoWarehouse;
const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });

beforeAll(async () => {
  demo = await demoWarehouse(4);
});
afterAll(() => demo?.cleanup());

/** A log destination that keeps every line it is given. */
function collect(lines: string[]): Writable {
  return new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
}

function config(extra: Record<string, unknown>): Config {
  return resolveConfig({
    // serve needs an API block; no job runs in these tests (none is passed to startServe).
    api: { baseUrl: 'http://127.0.0.1:9', token: 'not-used-here' },
    warehouse: { path: demo.warehouse },
    ...extra,
  });
}

describe('the live dashboard in serve', () => {
  it('is off unless enabled', async () => {
    const serve = await startServe(config({ receiver: { enabled: false } }), [], quiet);
    try {
      expect(serve.dashboardUrl).toBeUndefined();
    } finally {
      await serve.stop();
    }
  });

  it('answers GET / with the page made from the warehouse at that moment, on its own address', async () => {
    const serve = await startServe(
      config({ receiver: { enabled: true, port: 0, authorization: 'Basic dGVzdDp0ZXN0' }, dashboard: { enabled: true, port: 0, timezone: 'Europe/Madrid' } }),
      [],
      quiet,
    );
    try {
      expect(serve.dashboardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(serve.dashboardUrl).not.toBe(serve.url);
      const first = await fetch(`${serve.dashboardUrl}/`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await first.text();
      const data = embeddedData(html);
      expect(data.tz).toBe('Europe/Madrid');
      // The same explorable page as the file: the window of the last 13 months, the range
      // control opening on its last 90 days, every script inline.
      const days = data.days as string[];
      expect(data.from).toMatch(/^\d{4}-\d\d-01$/);
      expect(data.initial).toEqual({ from: days[Math.max(0, days.length - 90)], to: days.at(-1) });
      expect(html).toContain('<input type="date" id="range-from"');
      expect([...html.matchAll(/^<script>$/gm)]).toHaveLength(SCRIPT_FILES.length);
      const venues = data.venues as { id: string; label: string }[];
      expect(venues).toHaveLength(4);

      // Live: a change in the warehouse shows on the next request.
      await onServedFile(demo.warehouse, `INSERT OR REPLACE INTO venues (venue_id, name) VALUES ('${venues[0]!.id}', 'Renamed Live')`);
      const second = embeddedData(await (await fetch(`${serve.dashboardUrl}/`)).text());
      expect((second.venues as { label: string }[])[0]!.label).toBe('Renamed Live');
      expect((await fetch(`${serve.dashboardUrl}/`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${serve.dashboardUrl}/users/`)).status).toBe(404);
    } finally {
      await serve.stop();
    }
  });

  it('beyond loopback: warns at start, and with dashboard.authorization answers only requests that carry it', async () => {
    const credential = 'Basic ZGFzaDpib2FyZC0xMjM=';
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: collect(lines) });
    const serve = await startServe(
      config({ receiver: { enabled: false }, dashboard: { enabled: true, host: '0.0.0.0', port: 0, authorization: credential } }),
      [],
      logger,
    );
    try {
      const url = serve.dashboardUrl!.replace('0.0.0.0', '127.0.0.1');
      const missing = await fetch(`${url}/`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Basic realm="venue-etl dashboard"');
      expect((await fetch(`${url}/users/`)).status).toBe(401);
      expect((await fetch(`${url}/`, { headers: { authorization: 'Basic ZGFzaDpib2FyZC0xMjQ=' } })).status).toBe(401);
      const allowed = await fetch(`${url}/`, { headers: { authorization: credential } });
      expect(allowed.status).toBe(200);
      expect(embeddedData(await allowed.text()).venues).toHaveLength(4);
    } finally {
      await serve.stop();
    }
    const warnings = lines.join('');
    expect(warnings).toContain('dashboard: listening on 0.0.0.0, beyond this machine');
    expect(warnings).not.toContain('ZGFzaDpib2FyZC0xMjM');
  });

  it('beyond loopback without a credential: the warning says how to set one', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', destination: collect(lines) });
    const serve = await startServe(config({ receiver: { enabled: false }, dashboard: { enabled: true, host: '0.0.0.0', port: 0 } }), [], logger);
    await serve.stop();
    expect(lines.join('')).toContain('set dashboard.authorization');
    const local: string[] = [];
    const quietLocal = createLogger({ level: 'warn', destination: collect(local) });
    const onLoopback = await startServe(config({ receiver: { enabled: false }, dashboard: { enabled: true, port: 0 } }), [], quietLocal);
    await onLoopback.stop();
    expect(local.join('')).not.toContain('beyond this machine');
  });

  it('refuses to start on a warehouse a newer venue-etl migrated', async () => {
    const newer = `${demo.warehouse}.newer.duckdb`;
    copyFileSync(demo.warehouse, newer);
    await onFile(newer, [`INSERT INTO schema_migrations VALUES (999, 'from_the_future', now())`]);
    const refused = startServe(
      resolveConfig({ api: { baseUrl: 'http://127.0.0.1:9', token: 'x' }, warehouse: { path: newer }, receiver: { enabled: false } }),
      [],
      quiet,
    );
    await expect(refused).rejects.toMatchObject({ code: 'VENUE_WAREHOUSE_TOO_NEW' });
  });

  it('is refused on the receiver port', async () => {
    const clash = config({ receiver: { enabled: true, port: 18787, authorization: 'Basic dGVzdDp0ZXN0' }, dashboard: { enabled: true, port: 18787 } });
    await expect(startServe(clash, [], quiet)).rejects.toThrow(/dashboard\.port: must differ from receiver\.port/);
  });

  it('validates the dashboard keys', () => {
    expect(() => config({ dashboard: { timezone: 'Mars/Olympus' } })).toThrow(/dashboard\.timezone/);
    expect(() => config({ dashboard: { port: 70000 } })).toThrow(/dashboard\.port/);
    expect(config({}).dashboard).toEqual({ enabled: false, host: '127.0.0.1', port: 8788, timezone: 'UTC' });
  });
});

/**
 * A write to the warehouse serve holds open, through the process's one instance of that file:
 * a second DuckDB instance of the same file in one process may lose its writes
 * (src/warehouse/instances.ts), which made the rename invisible now and then.
 */
async function onServedFile(path: string, statement: string): Promise<void> {
  const instance = await acquireInstance(path, false);
  try {
    const connection = await instance.connect();
    try {
      await connection.run(statement);
    } finally {
      connection.closeSync();
    }
  } finally {
    await releaseInstance(path);
  }
}
