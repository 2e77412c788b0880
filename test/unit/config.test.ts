import { describe, expect, it } from 'vitest';
import { resolveConfig, ConfigError, maskConfig } from '../../src/config/index.js';
import { scrubSecrets } from '../../src/log/index.js';

const V = '00000000-0000-4000-8000-000000000001';
const minimal = { api: { baseUrl: 'http://127.0.0.1:1', token: '${TOKEN}' }, scope: { venues: [V] } };

function problemsOf(raw: unknown, env: Record<string, string> = {}): { path: string; message: string }[] {
  try {
    resolveConfig(raw, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a config error');
}

describe('config', () => {
  it('fills defaults and interpolates ${ENV}', () => {
    const config = resolveConfig(minimal, { TOKEN: 'secret-token-1' });
    expect(config.api!.token).toBe('secret-token-1');
    expect(config.api!.concurrency).toBe(64);
    expect(config.sync.lookbackDays).toBe(3);
    expect(config.warehouse.path).toBe('data/warehouse.duckdb');
    expect(maskConfig(config).api!.token).toBe('***');
  });

  it('reports every problem at once with its JSON path', () => {
    const problems = problemsOf({ api: { baseUrl: 'ftp://x', token: '${NOPE}', concurrency: 0 }, scope: { venues: ['nope'] }, sync: { lookbackDays: -1 } });
    const paths = problems.map((p) => p.path).sort();
    expect(paths).toEqual(['api.baseUrl', 'api.concurrency', 'api.token', 'scope.venues[0]', 'sync.lookbackDays']);
    expect(problems.find((p) => p.path === 'api.token')!.message).toMatch(/NOPE is not set/);
  });

  it('refuses unknown keys, streams, cron expressions and time zones', () => {
    const problems = problemsOf(
      { ...minimal, sync: { streams: ['nope'] }, schedule: { timezone: 'Mars/Base', jobs: { 'nightly-sync': 'every night' } }, extra: 1 },
      { TOKEN: 'x' },
    );
    expect(problems.map((p) => p.path).sort()).toEqual(['(root)', 'schedule.jobs.nightly-sync', 'schedule.timezone', 'sync.streams[0]']);
  });
});

describe('config errors', () => {
  it('name the variable instead of quoting a value that came from the environment (a secret in the wrong key)', () => {
    const secret = 'tok-5e3f9a1c77';
    const problems = problemsOf({ ...minimal, sync: { streams: ['${TOKEN}'] }, schedule: { timezone: '${TOKEN}' } }, { TOKEN: secret });
    expect(problems.map((p) => p.message).join('\n')).not.toContain(secret);
    expect(problems.find((p) => p.path === 'schedule.timezone')!.message).toContain('unknown time zone "${TOKEN}"');
  });
});

describe('config.example.json', () => {
  it('is a valid config once its variables are set', async () => {
    const { readFileSync } = await import('node:fs');
    const raw = JSON.parse(readFileSync(new URL('../../config.example.json', import.meta.url), 'utf8'));
    const config = resolveConfig(raw, { VENUE_API_TOKEN: 'example-token', VENUE_RECEIVER_AUTHORIZATION: 'Basic dXNlcjpwYXNz' });
    expect(config.sync.streams).toHaveLength(13);
    expect(config.receiver.authorization).toBe('Basic dXNlcjpwYXNz');
  });
});

describe('credentials in api.baseUrl', () => {
  it('are masked in the printed config, host and path kept', () => {
    const config = resolveConfig({ api: { baseUrl: 'https://etl:${PASSWORD}@api.example.com/v1', token: 'tok-1234' } }, { PASSWORD: 'pw-9c1e77' });
    expect(maskConfig(config).api!.baseUrl).toBe('https://etl:***@api.example.com/v1');
    const tokenAsUser = resolveConfig({ api: { baseUrl: 'https://tk-5a5a5a@api.example.com/', token: 'tok-1234' } }, {});
    expect(maskConfig(tokenAsUser).api!.baseUrl).toBe('https://***@api.example.com/');
  });

  it('are registered with the log scrubber, as written and percent-decoded, once the config resolves', () => {
    resolveConfig({ api: { baseUrl: 'http://etl:${PASSWORD}@127.0.0.1:1/', token: 'tok-1234' } }, { PASSWORD: 'p%40ss-71b2' });
    expect(scrubSecrets('refused p%40ss-71b2, decoded p@ss-71b2')).toBe('refused ***, decoded ***');
  });

  it('are masked in log text even when never registered (e.g. shorter than 4 characters)', () => {
    expect(scrubSecrets('GET http://u:pw@host/x failed; mail a@b.c')).toBe('GET http://u:***@host/x failed; mail a@b.c');
  });
});
