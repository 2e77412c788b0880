import { describe, expect, it } from 'vitest';
import { resolveConfig, ConfigError, dayHorizonDays, maskConfig, printableConfig, summaryGrains } from '../../src/config/index.js';
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

  it('says the same problem at 1,000 list entries in one line naming the first three, and keeps the others apart', () => {
    const venues = Array.from({ length: 1000 }, (_, i) => `venue-${i}`);
    let message = '';
    try {
      resolveConfig({ ...minimal, scope: { venues }, sync: { lookbackDays: -1 } }, { TOKEN: 'x' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as ConfigError).message;
      expect((error as ConfigError).problems).toHaveLength(1001);
    }
    const lines = message.split('\n');
    expect(lines[0]).toContain('has 1001 problems');
    expect(lines.filter((line) => line.includes('scope.venues'))).toEqual([
      expect.stringMatching(/^ {2}- scope\.venues\[0\], scope\.venues\[1\], scope\.venues\[2\] and 997 more like them: /),
    ]);
    expect(lines.filter((line) => line.includes('sync.lookbackDays'))).toHaveLength(1);
  });

  it('refuses unknown keys, streams, cron expressions and time zones', () => {
    const problems = problemsOf(
      { ...minimal, sync: { streams: ['nope'] }, schedule: { timezone: 'Mars/Base', jobs: { 'nightly-sync': 'every night' } }, extra: 1 },
      { TOKEN: 'x' },
    );
    expect(problems.map((p) => p.path).sort()).toEqual(['(root)', 'schedule.jobs.nightly-sync', 'schedule.timezone', 'sync.streams[0]']);
  });
});

describe('sync.summaryGrain and sync.dayHorizonDays', () => {
  it("is 'tiered' by default: both grains, day summaries for the last 92 days", () => {
    const config = resolveConfig(minimal, { TOKEN: 'x' });
    expect(config.sync.summaryGrain).toBe('tiered');
    expect(summaryGrains(config)).toEqual(['day', 'month']);
    expect(dayHorizonDays(config)).toBe(92);
    expect(dayHorizonDays(resolveConfig({ ...minimal, sync: { dayHorizonDays: 31 } }, { TOKEN: 'x' }))).toBe(31);
  });

  it("keeps 'day', 'month' and both meaning that grain for every period (no horizon)", () => {
    for (const summaryGrain of ['day', 'month', ['day', 'month']] as const) {
      const config = resolveConfig({ ...minimal, sync: { summaryGrain } }, { TOKEN: 'x' });
      expect(dayHorizonDays(config)).toBeUndefined();
      expect(summaryGrains(config)).toEqual(Array.isArray(summaryGrain) ? summaryGrain : [summaryGrain]);
    }
  });

  it('refuses a bad dayHorizonDays with its path, and one set beside a grain it does not apply to', () => {
    for (const bad of [0, -5, 1.5, 4000, '92']) {
      const problems = problemsOf({ ...minimal, sync: { dayHorizonDays: bad } }, { TOKEN: 'x' });
      expect(problems).toEqual([{ path: 'sync.dayHorizonDays', message: expect.stringMatching(/must be a whole number of days from 1 to 3660/) }]);
    }
    const misplaced = problemsOf({ ...minimal, sync: { summaryGrain: 'day', dayHorizonDays: 92 } }, { TOKEN: 'x' });
    expect(misplaced).toEqual([{ path: 'sync.dayHorizonDays', message: expect.stringMatching(/applies only to summaryGrain 'tiered'/) }]);
    expect(problemsOf({ ...minimal, sync: { summaryGrain: 'weekly' } }, { TOKEN: 'x' }).map((p) => p.path)).toEqual(['sync.summaryGrain']);
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
    const hook = 'https://hooks.slack.example/services/T000/B000/example-secret';
    const config = resolveConfig(raw, { VENUE_API_TOKEN: 'example-token', VENUE_RECEIVER_AUTHORIZATION: 'Basic dXNlcjpwYXNz', VENUE_SLACK_WEBHOOK_URL: hook });
    expect(config.sync.streams).toHaveLength(13);
    expect(config.receiver.authorization).toBe('Basic dXNlcjpwYXNz');
    expect(config.notify.webhooks[0]!.url).toBe(hook);
    // A webhook URL is a secret as a whole: the printed config shows none of it.
    expect(JSON.stringify(maskConfig(config))).not.toContain('example-secret');
    expect(config.freshness.streams['venue-roles']).toBe(7);
  });
});

describe('dashboard.authorization', () => {
  it('is masked in the printed config, and left unread by the read commands', async () => {
    const { resolveReadSideConfig } = await import('../../src/config/index.js');
    const config = resolveConfig({ dashboard: { authorization: '${DASH}' } }, { DASH: 'Basic ZGFzaDpwYXNzd29yZA==' });
    expect(config.dashboard.authorization).toBe('Basic ZGFzaDpwYXNzd29yZA==');
    expect(maskConfig(config).dashboard.authorization).toBe('***');
    // An analyst without the variable can still run sql, report, check, status and dashboard.
    expect(resolveReadSideConfig({ dashboard: { authorization: '${DASH}' } }, {}).dashboard.authorization).toBeUndefined();
    expect(() => resolveConfig({ dashboard: { authorization: '${DASH}' } }, {})).toThrow(/DASH/);
  });
});

describe('parquet.dir', () => {
  it('is refused when it is /, the warehouse folder or a folder holding it (exit 2, with the fix)', () => {
    for (const [dir, message] of [
      ['/', /parquet\.dir: is the root of the file system/],
      ['/srv/etl/data', /parquet\.dir: is the folder of the warehouse \(\/srv\/etl\/data\)/],
      ['/srv/etl', /parquet\.dir: contains the folder of the warehouse \(\/srv\/etl\/data\)/],
    ] as const) {
      const error = (() => {
        try {
          resolveConfig({ warehouse: { path: '/srv/etl/data/warehouse.duckdb' }, parquet: { dir } });
        } catch (e) {
          return e as ConfigError;
        }
        return undefined;
      })();
      expect(error?.message, dir).toMatch(message);
      expect(error?.exitCode).toBe(2);
      expect(error?.hint).toContain('a folder of its own');
    }
    for (const dir of ['/srv/etl/data/parquet', '/srv/lake', '/srv/etl/data-lake', 's3://bucket/srv']) {
      expect(resolveConfig({ warehouse: { path: '/srv/etl/data/warehouse.duckdb' }, parquet: { dir } }).parquet.dir, dir).toBe(dir);
    }
  });
});

describe('query limits', () => {
  it('default to 1GB and 300 s, and refuse a size that is not one', () => {
    expect(resolveConfig({}).query).toEqual({ memoryLimit: '1GB', timeoutSeconds: 300 });
    expect(() => resolveConfig({ query: { memoryLimit: 'lots' } })).toThrow(/query\.memoryLimit/);
    expect(() => resolveConfig({ query: { timeoutSeconds: 0 } })).toThrow(/query\.timeoutSeconds/);
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

describe('scope.venues: ids, and {id, name} entries', () => {
  const W = '00000000-0000-4000-8000-000000000002';

  it('reads a plain-id config as before: the ids, no names, and prints it back unchanged', () => {
    const config = resolveConfig(minimal, { TOKEN: 'x' });
    expect(config.scope).toEqual({ venues: [V], venueNames: {}, projects: [] });
    expect(printableConfig(config).scope).toEqual({ venues: [V], projects: [] });
  });

  it('takes named entries beside plain ids: the ids in order, the names by lower-case id; printed as written', () => {
    const upper = W.toUpperCase();
    const config = resolveConfig({ ...minimal, scope: { venues: [V, { id: upper, name: '  North Hostel Lisbon ' }, { id: V }] } }, { TOKEN: 'x' });
    expect(config.scope.venues).toEqual([V, upper, V]);
    expect(config.scope.venueNames).toEqual({ [W]: 'North Hostel Lisbon' });
    expect(printableConfig(config).scope).toEqual({ venues: [V, { id: upper, name: 'North Hostel Lisbon' }, V], projects: [] });
    // What is printed loads to the same config.
    expect(resolveConfig({ ...minimal, scope: printableConfig(config).scope }, { TOKEN: 'x' }).scope).toEqual(config.scope);
  });

  it('refuses a bad entry with its path: not an id, a misspelt key, an empty or multi-line name, two names for one id', () => {
    const problems = problemsOf(
      { ...minimal, scope: { venues: [5, { id: V, nmae: 'x' }, { id: V, name: ' ' }, { id: W, name: 'a\nb' }, { id: 'nope', name: 'x' }] } },
      { TOKEN: 'x' },
    );
    expect(problems).toEqual([
      { path: 'scope.venues[0]', message: 'must be a venue id (UUID) or an object {"id": "<UUID>", "name": "<name>"}' },
      { path: 'scope.venues[1]', message: 'unknown key "nmae"; did you mean "name"?' },
      { path: 'scope.venues[2].name', message: expect.stringMatching(/^must be 1–200 characters/) },
      { path: 'scope.venues[3].name', message: expect.stringMatching(/without line breaks or other control characters/) },
      { path: 'scope.venues[4].id', message: 'must be a UUID' },
    ]);
    const twice = problemsOf({ ...minimal, scope: { venues: [{ id: V, name: 'A' }, V, { id: V.toUpperCase(), name: 'B' }] } }, { TOKEN: 'x' });
    expect(twice).toEqual([{ path: 'scope.venues[2].name', message: `venue ${V.toUpperCase()} is already named "A" at scope.venues[0]: give it one name` }]);
  });
});
