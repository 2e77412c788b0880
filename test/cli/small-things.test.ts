import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnv, CLI, describeRun, runCli, startFixture, todayUtc, type Fixture } from '../e2e/harness.js';
import { queryRows } from '../e2e/warehouse-reads.js';
import { AUTH, startServe, writeServeConfig, type Serve } from '../serve/serve-child.js';
import { eventBody } from '../receiver/helpers.js';
import { waitForOutput } from '../wait.js';

const COMMAND_NAMES = [
  'demo',
  'sync',
  'backfill',
  'config',
  'simulate',
  'export',
  'sql',
  'report',
  'check',
  'status',
  'dashboard',
  'jobs',
  'serve',
  'merge-events',
  'reset',
  'init',
  'completion',
];

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-small-'));
beforeAll(assertBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('venue-etl with no arguments', () => {
  it('prints the usage to stderr, nothing to stdout, and exits 2', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: venue-etl <command> [options]');
    // --help is an answer, not an error: stdout and exit 0.
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: venue-etl <command> [options]');
  });
});

describe('venue-etl simulate', () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function simulate(args: string[]): { child: ReturnType<typeof spawn>; output: () => string } {
    const child = spawn(process.execPath, [CLI, 'simulate', '--today', todayUtc(), '--log-level', 'warn', ...args], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let text = '';
    child.stdout!.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (text += c.toString('utf8')));
    return { child, output: () => text };
  }

  it('prints a config snippet with its URL, token and scope', async () => {
    const sim = simulate(['--venues', '2', '--token', 'snippet-token']);
    await waitForOutput(sim.child, sim.output, /^\}$/m);
    const url = sim.output().split('\n')[0]!;
    const snippet = JSON.parse(sim.output().slice(sim.output().indexOf('{'))) as {
      api: { baseUrl: string; token: string };
      scope: { venues: { id: string; name: string }[]; projects: string[] };
    };
    expect(snippet.api).toEqual({ baseUrl: url, token: 'snippet-token' });
    // The world's venues with their names: reports and the dashboard show them.
    expect(snippet.scope.venues).toHaveLength(2);
    for (const venue of snippet.scope.venues) expect(venue).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: expect.stringMatching(/\S/) });
    expect(sim.output()).toContain(`venues: ${snippet.scope.venues.map((v) => v.id).join(',')}`);
    sim.child.kill('SIGTERM');
  });

  it('--write-config writes a config that sync runs with against that simulator, and never overwrites', async () => {
    const path = join(dir, 'sim.config.json');
    const sim = simulate(['--venues', '1', '--days', '40', '--write-config', path]);
    await waitForOutput(sim.child, sim.output, /^config written to /m);
    const sync = await runCli(['sync', '--config', path, '--log-level', 'warn'], { cwd: dir, timeoutMs: 90_000 });
    expect(sync.code, describeRun(sync)).toBe(0);
    // Relative paths of the written config sit beside it.
    const warehouse = join(dir, 'data', 'warehouse.duckdb');
    expect(existsSync(warehouse)).toBe(true);
    const [rows] = await queryRows(warehouse, 'SELECT count(*)::INTEGER AS n FROM series_points');
    expect(Number(rows!.n)).toBeGreaterThan(0);
    sim.child.kill('SIGTERM');

    const before = readFileSync(path, 'utf8');
    const again = await runCli(['simulate', '--write-config', path]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe('the receiver inside serve', () => {
  let fixture: Fixture | undefined;
  let serve: Serve | undefined;
  afterEach(async () => {
    if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
    serve = undefined;
    await fixture?.close();
  });

  it('takes POST /users (no trailing slash) like POST /users/', async () => {
    fixture = await startFixture({ sim: { venues: 1, days: 5 } });
    const never = '0 0 1 1 *';
    const config = writeServeConfig(fixture, 0, { 'nightly-sync': never, 'roles-snapshot': never, 'parquet-export': never });
    serve = await startServe(fixture, config, 0);
    const headers = { 'content-type': 'application/json', authorization: AUTH };
    const bare = await fetch(`${serve.url}/users`, { method: 'POST', headers, body: eventBody({ visits: 1 }) });
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as { status: string }).status).toBe('accepted');
    const slash = await fetch(`${serve.url}/users/`, { method: 'POST', headers, body: eventBody({ visits: 2 }) });
    expect(slash.status).toBe(200);
    expect((await fetch(`${serve.url}/user`, { method: 'POST', headers, body: eventBody() })).status).toBe(404);
  });
});

describe('venue-etl completion', () => {
  it('prints a bash script that parses, names every command, and completes commands and options', async () => {
    const run = await runCli(['completion', 'bash']);
    expect(run.code).toBe(0);
    const parse = spawnSync('bash', ['-n'], { input: run.stdout, encoding: 'utf8' });
    if (parse.error) throw new Error(`bash is needed for this test: ${parse.error.message}`);
    expect(parse.status, parse.stderr).toBe(0);
    for (const name of COMMAND_NAMES) expect(run.stdout).toMatch(new RegExp(`\\b${name}\\) options="`));
    const complete = (words: string): string => {
      const script = `${run.stdout}\nCOMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _venue_etl; echo "\${COMPREPLY[*]}"`;
      const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout.trim();
    };
    expect(complete('venue-etl sy')).toBe('sync');
    expect(complete('venue-etl backfill --dr')).toBe('--dry-run');
    expect(complete('venue-etl sync --log-level de')).toBe('debug');
  });

  it('prints a zsh script that names every command, and refuses another shell', async () => {
    const run = await runCli(['completion', 'zsh']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('#compdef venue-etl\n')).toBe(true);
    for (const name of COMMAND_NAMES) {
      expect(run.stdout).toContain(`    '${name}:`);
      expect(run.stdout).toContain(`    ${name}) _arguments `);
    }
    const fish = await runCli(['completion', 'fish']);
    expect(fish.code).toBe(2);
    expect(fish.stderr).toContain('bash or zsh, got "fish"');
  });
});
