import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { assertBuilt, childEnv, describeRun, runCli } from '../e2e/harness.js';

const V1 = '11111111-1111-4111-8111-111111111111';
const P1 = '99999999-9999-4999-8999-999999999999';

const root = mkdtempSync(join(tmpdir(), 'venue-etl-init-'));
let sim: Simulator;
beforeAll(async () => {
  assertBuilt();
  sim = await startSimulator({ seed: 7, venues: 2, days: 10, token: 'init-secret-token' });
});
afterAll(async () => {
  await sim?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('venue-etl init', () => {
  it('writes a commented config that the loader takes and a .env.example, and never overwrites without --force', async () => {
    const dir = join(root, 'fresh');
    const run = await runCli(['init', '--dir', dir, '--base-url', 'https://venues.example.net', '--venues', `${V1}`, '--projects', P1]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain(`wrote ${join(dir, 'venue-etl.config.json')}`);
    expect(run.stdout).toContain('access not checked: VENUE_API_TOKEN is not set');
    const text = readFileSync(join(dir, 'venue-etl.config.json'), 'utf8');
    const document = JSON.parse(text) as { '//': string; api: Record<string, string> };
    expect(document['//']).toContain('comments');
    expect(document.api['//token']).toBeDefined();
    expect(document.api.token).toBe('${VENUE_API_TOKEN}');
    expect(readFileSync(join(dir, '.env.example'), 'utf8')).toMatch(/^VENUE_API_TOKEN=$/m);

    // The real loader: `config` resolves it (from another folder), token masked.
    const loaded = await runCli(['config', '--config', join(dir, 'venue-etl.config.json')], {
      env: childEnv({ VENUE_API_TOKEN: 'tok-from-env-1' }),
      cwd: root,
    });
    expect(loaded.code, describeRun(loaded)).toBe(0);
    const resolved = JSON.parse(loaded.stdout) as {
      api: { baseUrl: string; token: string };
      scope: { venues: string[]; projects: string[] };
      warehouse: { path: string };
    };
    expect(resolved.api.baseUrl).toBe('https://venues.example.net');
    expect(resolved.scope).toEqual({ venues: [V1], projects: [P1] });
    expect(resolved.warehouse.path).toBe(join(dir, 'data', 'warehouse.duckdb'));
    expect(loaded.stdout).not.toContain('tok-from-env-1');

    writeFileSync(join(dir, 'venue-etl.config.json'), '{"mine": true}\n');
    const again = await runCli(['init', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exist');
    expect(again.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'venue-etl.config.json'), 'utf8')).toBe('{"mine": true}\n');
    const forced = await runCli(['init', '--dir', dir, '--force']);
    expect(forced.code, describeRun(forced)).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'venue-etl.config.json'), 'utf8'))).toHaveProperty('api.token', '${VENUE_API_TOKEN}');
  });

  it('refuses flags that would not load, writing nothing', async () => {
    const dir = join(root, 'bad-flags');
    const run = await runCli(['init', '--dir', dir, '--venues', 'venue-1', '--base-url', 'ftp://example.net']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('scope.venues[0]: must be a UUID');
    expect(run.stderr).toContain('api.baseUrl: must be an http(s) URL');
    expect(existsSync(join(dir, 'venue-etl.config.json'))).toBe(false);
  });

  it('with the token set, checks access with one request and names the account', async () => {
    const dir = join(root, 'checked');
    const seen = sim.requests.length;
    const [first, second] = sim.world.venues.map((v) => v.id);
    // ID=NAME names a venue in the written config.
    const venues = `${first}=North Hostel Lisbon,${second}`;
    const run = await runCli(['init', '--dir', dir, '--base-url', sim.url, '--venues', venues], { env: childEnv({ VENUE_API_TOKEN: 'init-secret-token' }) });
    expect(run.code, describeRun(run)).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'venue-etl.config.json'), 'utf8')).scope.venues).toEqual([{ id: first, name: 'North Hostel Lisbon' }, second]);
    const me = sim.world.me;
    expect(run.stdout).toContain(`access ok: ${sim.url} accepted the token of ${me.fullName} <${me.email}> (account ${me.id})`);
    expect(run.stdout).toContain('scope: 2 venues, 0 projects');
    const requests = sim.requests.slice(seen);
    expect(requests.map((r) => r.path)).toEqual(['/accounts/filtered-accounts/me/']);
    expect(run.stdout + run.stderr).not.toContain('init-secret-token');

    const refused = await runCli(['init', '--dir', join(root, 'refused'), '--base-url', sim.url], { env: childEnv({ VENUE_API_TOKEN: 'wrong-token-2' }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('VENUE_API_AUTH');
    expect(refused.stdout + refused.stderr).not.toContain('wrong-token-2');
  });
});
