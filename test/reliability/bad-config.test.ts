/**
 * Bad config files and bad arguments: each must exit 2 with a message naming the problem, print
 * no stack trace, and touch nothing — no warehouse file, no Parquet folder, no API request.
 * Each case has its own folder and its own API base path (`<sim>/cN`), so a request or a file
 * is traced to the case that made it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, childEnv, runCli, startFixture, todayUtc, TOKEN_ENV, type CliResult, type Fixture } from '../e2e/harness.js';
import { readConfigDocument, type ConfigDocument } from '../e2e/config-document.js';
import { FULL, reportFigure, reportTable } from './figures.js';

let fx: Fixture;
beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 2 } });
});
afterAll(async () => {
  await fx?.close();
});

interface BadCase {
  readonly name: string;
  readonly args: readonly string[];
  /** A change to the valid config, raw file text, or `null` for no file at all. */
  readonly config?: ((config: ConfigDocument) => void) | string | null;
  /** Environment on top of the token; `null` drops the token variable. */
  readonly env?: Readonly<Record<string, string>> | null;
  /** What the message must name. */
  readonly names: RegExp;
}

const today = todayUtc();
const from = addDays(today, -20);
const to = addDays(today, -1);
const OUTSIDER = '11111111-2222-4333-8444-555555555555';

const CASES: readonly BadCase[] = [
  // The config file itself
  { name: 'config file missing', args: ['sync'], config: null, names: /cannot read config file/ },
  { name: 'config is not JSON', args: ['sync'], config: '{ "api": { "baseUrl": ', names: /not valid JSON/ },
  { name: 'config is empty', args: ['sync'], config: '', names: /not valid JSON/ },
  { name: 'config is an array', args: ['sync'], config: '[1, 2]', names: /\(root\)/ },
  { name: 'unknown top-level key', args: ['sync'], config: (c) => (c.extras = true), names: /extras/ },
  { name: 'unknown nested key (typo)', args: ['sync'], config: (c) => (c.api.tokne = 'x'), names: /api.*tokne/ },
  { name: 'wrong type (string for number)', args: ['sync'], config: (c) => (c.api.concurrency = '8'), names: /api\.concurrency/ },
  { name: 'number out of range', args: ['sync'], config: (c) => (c.api.timeoutMs = 5), names: /api\.timeoutMs/ },
  { name: 'negative window', args: ['sync'], config: (c) => (c.sync.windowDays = -1), names: /sync\.windowDays/ },
  { name: 'missing env variable', args: ['sync'], env: null, names: new RegExp(TOKEN_ENV) },
  { name: 'not a URL', args: ['sync'], config: (c) => (c.api.baseUrl = 'api.example.com/v1'), names: /api\.baseUrl/ },
  { name: 'URL of another scheme', args: ['sync'], config: (c) => (c.api.baseUrl = 'ftp://127.0.0.1/'), names: /api\.baseUrl/ },
  { name: 'bad UUID in scope', args: ['sync'], config: (c) => (c.scope.venues = [...c.scope.venues, 'venue-1']), names: /scope\.venues\[2\]/ },
  { name: 'impossible start date', args: ['sync'], config: (c) => (c.sync.startDate = '2026-02-30'), names: /sync\.startDate/ },
  { name: 'start date in words', args: ['sync'], config: (c) => (c.sync.startDate = 'last monday'), names: /sync\.startDate/ },
  {
    name: 'unknown stream in config',
    args: ['sync'],
    config: (c) => (c.sync.streams = ['venue-devices-histroy']),
    names: /sync\.streams\[0\].*venue-devices-histroy/,
  },
  {
    name: 'bad cron expression',
    args: ['sync'],
    config: (c) => (c.schedule = { jobs: { 'nightly-sync': '61 25 * * *' } }),
    names: /schedule\.jobs\.nightly-sync/,
  },
  { name: 'bad time zone', args: ['sync'], config: (c) => (c.schedule = { timezone: 'Mars/Olympus_Mons' }), names: /schedule\.timezone/ },
  { name: 'bad log level in config', args: ['sync'], config: (c) => (c.log.level = 'verbose'), names: /log\.level/ },
  { name: 'receiver port out of range', args: ['sync'], config: (c) => (c.receiver = { port: 70_000 }), names: /receiver\.port/ },
  { name: 'receiver credential too short', args: ['sync'], config: (c) => (c.receiver = { authorization: 'abc' }), names: /receiver\.authorization/ },
  { name: 'no api section for sync', args: ['sync'], config: (c) => Reflect.deleteProperty(c, 'api'), names: /api\.baseUrl/ },
  {
    name: 'several problems at once',
    args: ['sync'],
    config: (c) => Object.assign(c.api, { concurrency: 0, pageSize: 'x' }),
    names: /api\.concurrency[\s\S]*api\.pageSize/,
  },
  // Arguments
  { name: 'unknown command', args: ['synch'], names: /unknown command "synch"/ },
  { name: 'unknown option', args: ['sync', '--frobnicate'], names: /frobnicate/ },
  { name: 'extra positional', args: ['sync', 'now'], names: /positional.*now/ },
  { name: 'bad --log-level', args: ['sync', '--log-level', 'loud'], names: /--log-level/ },
  { name: 'option without its value', args: ['sync', '--until'], names: /--until/ },
  { name: 'sync --until not a date', args: ['sync', '--until', '2026-1-5'], names: /--until/ },
  { name: 'sync --until in the future', args: ['sync', '--until', addDays(today, 2)], names: /in the future/ },
  { name: 'sync unknown stream', args: ['sync', '--streams', 'venue-devices-histroy'], names: /unknown stream: venue-devices-histroy/ },
  { name: 'sync venue not in scope', args: ['sync', '--venues', OUTSIDER], names: new RegExp(`not in scope\\.venues: ${OUTSIDER}`) },
  { name: 'sync bad venue id', args: ['sync', '--venues', 'venue-1'], names: /venue-1/ },
  { name: 'sync empty --streams', args: ['sync', '--streams', ','], names: /--streams/ },
  { name: 'backfill without --to', args: ['backfill', '--from', from], names: /--to/ },
  { name: 'backfill from > to', args: ['backfill', '--from', to, '--to', from], names: /--from .* is after --to/ },
  { name: 'backfill impossible date', args: ['backfill', '--from', '2026-13-01', '--to', to], names: /--from.*2026-13-01/ },
  { name: 'backfill future --to', args: ['backfill', '--from', from, '--to', addDays(today, 5)], names: /in the future/ },
  { name: 'backfill future range', args: ['backfill', '--from', addDays(today, 3), '--to', addDays(today, 5)], names: /in the future/ },
  { name: 'backfill --window-days 0', args: ['backfill', '--from', from, '--to', to, '--window-days', '0'], names: /--window-days/ },
  { name: 'backfill --window-days abc', args: ['backfill', '--from', from, '--to', to, '--window-days', 'abc'], names: /--window-days/ },
  { name: 'backfill unknown stream', args: ['backfill', '--from', from, '--to', to, '--streams', 'accounts-x'], names: /unknown stream: accounts-x/ },
  { name: 'sql bad --format', args: ['sql', 'SELECT 1', '--format', 'xml'], names: /--format/ },
  { name: 'sql without query', args: ['sql'], names: /needs a query/ },
  { name: 'sql two positionals', args: ['sql', 'SELECT 1', 'SELECT 2'], names: /positional/ },
  { name: 'report unknown', args: ['report', 'daily-devicez'], names: /no report named "daily-devicez"/ },
  { name: 'report bad --venues', args: ['report', 'daily-devices', '--venues', 'venue-1'], names: /--venues.*venue-1/ },
  { name: 'report from > to', args: ['report', 'daily-devices', '--from', to, '--to', from], names: /--from .* is after --to/ },
  { name: 'report bad --format', args: ['report', 'daily-devices', '--format', 'yaml'], names: /--format/ },
  { name: 'export unknown table', args: ['export', '--tables', 'series_pointz'], names: /series_pointz/ },
  { name: 'check unknown', args: ['check', 'series-gap'], names: /no check named "series-gap"; did you mean "series-gaps"/ },
  { name: 'status unknown option', args: ['status', '--verbose'], names: /verbose/ },
];

/** Reduced: every other case (still more than 25, files and arguments alike); full: all of them. */
const SELECTED = FULL ? CASES : CASES.filter((_, i) => i % 2 === 0);

interface Outcome {
  readonly case: string;
  readonly exit: number | string;
  readonly named: boolean;
  readonly stack: boolean;
  readonly touched: readonly string[];
  readonly requests: number;
  readonly ok: boolean;
}

it(`refuses ${SELECTED.length} bad configs and arguments with exit 2, a message naming the problem, and touches nothing`, async () => {
  const base = readConfigDocument(fx.configPath);
  fx.sim.clearRequests();
  const run = async (c: BadCase, index: number): Promise<{ result: CliResult; dir: string; prefix: string }> => {
    const dir = join(fx.dir, `case-${index}`);
    mkdirSync(dir);
    const prefix = `/c${index}`;
    const config = structuredClone(base);
    config.api.baseUrl = `${fx.sim.url}${prefix}`;
    config.warehouse.path = join(dir, 'data', 'warehouse.duckdb');
    config.parquet.dir = join(dir, 'parquet');
    const configPath = join(dir, 'venue-etl.config.json');
    if (typeof c.config === 'string') writeFileSync(configPath, c.config);
    else if (c.config !== null) {
      c.config?.(config);
      writeFileSync(configPath, JSON.stringify(config, null, 2));
    }
    const env = c.env === null ? childEnv() : childEnv({ [TOKEN_ENV]: fx.sim.token, ...c.env });
    const result = await runCli([...c.args, '--config', configPath], { env, cwd: dir });
    return { result, dir, prefix };
  };
  // Four at a time: every case is a process start, and the machine is shared.
  const results: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < SELECTED.length; i += 4) {
    results.push(...(await Promise.all(SELECTED.slice(i, i + 4).map((c, j) => run(c, i + j)))));
  }
  const requests = fx.sim.requests;
  const outcomes: Outcome[] = SELECTED.map((c, i) => {
    const { result, dir, prefix } = results[i]!;
    const touched = readdirSync(dir).filter((name) => name !== 'venue-etl.config.json');
    const named = c.names.test(result.stderr);
    const stack = /^\s+at /m.test(result.stderr) || /^\s+at /m.test(result.stdout);
    const made = requests.filter((r) => r.path.startsWith(`${prefix}/`)).length;
    const ok = result.code === 2 && named && !stack && touched.length === 0 && made === 0;
    return { case: c.name, exit: result.code ?? String(result.signal), named, stack, touched, requests: made, ok };
  });
  reportTable(
    'bad configs and arguments',
    outcomes.map((o) => ({ ...o, touched: o.touched.join(',') || '-' })),
  );
  const passed = outcomes.filter((o) => o.ok).length;
  reportFigure('bad-config', {
    cases: outcomes.length,
    exit2: outcomes.filter((o) => o.exit === 2).length,
    named: outcomes.filter((o) => o.named).length,
    stackTraces: outcomes.filter((o) => o.stack).length,
    touched: outcomes.filter((o) => o.touched.length > 0).length,
    requests: outcomes.reduce((n, o) => n + o.requests, 0),
    passedPercent: Math.round((1000 * passed) / outcomes.length) / 10,
  });
  const failures = outcomes
    .filter((o) => !o.ok)
    .map((o) => {
      const i = SELECTED.findIndex((c) => c.name === o.case);
      return `${o.case}: ${JSON.stringify(o)}\n${results[i]!.result.stderr.slice(0, 600)}`;
    });
  expect(failures, failures.join('\n\n')).toEqual([]);
  expect(SELECTED.length).toBeGreaterThanOrEqual(25);
  expect(existsSync(fx.warehousePath)).toBe(false);
}, 180_000);
