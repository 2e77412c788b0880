import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForOutput } from '../wait.js';
import { addDays, assertBuilt, childEnv, CLI, describeRun, runCli, startFixture, todayUtc, TOKEN_ENV, type Fixture } from './harness.js';

// Each command reads only the config blocks it uses (docs/configuration.md, "What each command
// reads"): the receiver's credential is serve's alone; `config` checks what every command needs.

const RECEIVER_VARIABLE = 'VENUE_RECEIVER_AUTHORIZATION';
const RECEIVER_REFERENCE = `\${${RECEIVER_VARIABLE}}`;

let fx: Fixture;
/** A config whose receiver is on and reads its credential from a variable that is not set. */
let withReceiver: string;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 2, days: 20 } });
  withReceiver = fx.writeConfig({ blocks: { receiver: { enabled: true, port: 0, authorization: RECEIVER_REFERENCE } } }, join(fx.dir, 'with-receiver.json'));
});
afterAll(async () => fx?.close());

describe('a config whose receiver credential variable is not set', () => {
  it('is no concern of sync, backfill --dry-run or jobs', async () => {
    const today = todayUtc();
    const runs = [
      ['sync', '--streams', 'venue-devices-history'],
      ['backfill', '--dry-run', '--from', addDays(today, -5), '--to', addDays(today, -1)],
      ['jobs'],
    ];
    for (const args of runs) {
      const run = await fx.cli(args, { configPath: withReceiver });
      expect(run.code, `${args.join(' ')}\n${describeRun(run)}`).toBe(0);
      expect(run.stderr, args.join(' ')).not.toContain(RECEIVER_VARIABLE);
    }
  }, 150_000);

  it('is named by config as the variable serve reads', async () => {
    const run = await fx.cli(['config'], { configPath: withReceiver });
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain(
      `receiver.authorization: environment variable ${RECEIVER_VARIABLE} is not set (referenced as ${RECEIVER_REFERENCE}) (read by serve)`,
    );
  });

  it('stops serve at start, before any server or job, naming the variable', async () => {
    const run = await fx.cli(['serve'], { configPath: withReceiver });
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain(`environment variable ${RECEIVER_VARIABLE} is not set`);
    expect(run.stdout).not.toContain('venue-etl serve (PID');
  });
});

describe('config', () => {
  it('fails on what serve needs when the file sets serve up, naming the command', async () => {
    const path = fx.writeConfig({ blocks: { receiver: { enabled: true, port: 0 }, schedule: { timezone: 'UTC' } } }, join(fx.dir, 'no-credential.json'));
    const run = await fx.cli(['config'], { configPath: path });
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain('receiver.authorization: is required when receiver.enabled is true');
    expect(run.stderr).toContain('(needed by serve)');
    // serve itself refuses at start with the same key.
    const serve = await fx.cli(['serve'], { configPath: path });
    expect(serve.code, describeRun(serve)).toBe(2);
    expect(serve.stderr).toContain('receiver.authorization: is required when receiver.enabled is true');
  });

  it('says which commands need which variables', async () => {
    const run = await fx.cli(['config'], { configPath: withReceiver, env: { ...fx.env, [RECEIVER_VARIABLE]: 'Basic c2VjcmV0LXZhbHVl' } });
    expect(run.code, describeRun(run)).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines).toContain(`  sync, backfill: ready; variables: ${TOKEN_ENV} (api.token)`);
    expect(lines).toContain(`  serve: ready; variables: ${TOKEN_ENV} (api.token), ${RECEIVER_VARIABLE} (receiver.authorization)`);
    expect(run.stderr).toMatch(/^ {2}jobs, export, sql, report, check, status, dashboard, merge-events, reset: ready; no variables$/m);
    expect(run.stderr).not.toContain('c2VjcmV0LXZhbHVl');
    expect(run.stdout).not.toContain('c2VjcmV0LXZhbHVl');
  });
});

describe('serve with the receiver switched off', () => {
  it('starts without the receiver credential variable', async () => {
    const path = fx.writeConfig(
      { blocks: { receiver: { enabled: false, authorization: RECEIVER_REFERENCE }, schedule: { timezone: 'UTC', jobs: { 'nightly-sync': '0 0 1 1 *' } } } },
      join(fx.dir, 'receiver-off.json'),
    );
    const child = spawn(process.execPath, [CLI, 'serve', '--config', path], { cwd: fx.dir, env: { ...fx.env, ...childEnv({ [TOKEN_ENV]: fx.sim.token }) } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitForOutput(child, () => out, /venue-etl serve \(PID \d+\)/, 60_000);
      expect(out).not.toContain(RECEIVER_VARIABLE);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, out).toBe(0);
  }, 120_000);
});

describe('init', () => {
  it('writes a receiver block, switched off, that says what it is for', async () => {
    const dir = join(fx.dir, 'init');
    const run = await runCli([
      'init',
      '--dir',
      dir,
      '--base-url',
      fx.sim.url,
      '--venues',
      fx.sim.world.venues[0]!.id,
      '--projects',
      fx.sim.world.projects[0]!.id,
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    const document = JSON.parse(readFileSync(join(dir, 'venue-etl.config.json'), 'utf8')) as { receiver: Record<string, unknown> };
    expect(document.receiver).toMatchObject({ enabled: false, authorization: RECEIVER_REFERENCE, port: 8787 });
    expect(document.receiver['//']).toContain('venue-etl serve');
    expect(document.receiver['//authorization']).toContain('read only while enabled');
    // The starter config is ready for every command it sets up, with the receiver's variable unset.
    const config = await runCli(['config', '--config', join(dir, 'venue-etl.config.json')], { env: childEnv({ [TOKEN_ENV]: 'starter-token' }) });
    expect(config.code, describeRun(config)).toBe(0);
    expect(config.stderr).toContain(`serve: ready; variables: ${TOKEN_ENV} (api.token)\n`);
  });
});
