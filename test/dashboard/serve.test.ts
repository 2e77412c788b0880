import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type Config } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { startServe } from '../../src/scheduler/serve.js';
import { demoWarehouse, embeddedData, onFile, type DemoWarehouse } from './fixture.js';

let demo: DemoWarehouse;
const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });

beforeAll(async () => {
  demo = await demoWarehouse(4);
});
afterAll(() => demo?.cleanup());

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
      const data = embeddedData(await first.text());
      expect(data.tz).toBe('Europe/Madrid');
      const venues = data.venues as { id: string; name: string | null }[];
      expect(venues).toHaveLength(4);

      // Live: a change in the warehouse shows on the next request.
      await onFile(demo.warehouse, [`INSERT OR REPLACE INTO venues (venue_id, name) VALUES ('${venues[0]!.id}', 'Renamed Live')`]);
      const second = embeddedData(await (await fetch(`${serve.dashboardUrl}/`)).text());
      expect((second.venues as { name: string | null }[])[0]!.name).toBe('Renamed Live');
      expect((await fetch(`${serve.dashboardUrl}/`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${serve.dashboardUrl}/users/`)).status).toBe(404);
    } finally {
      await serve.stop();
    }
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
