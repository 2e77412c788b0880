/**
 * `bin/venue-etl`, the command users run (package.json "bin", `npm start`, `deploy/`): a shell
 * launcher that sets the allocator's variables before Node starts (they are read only at
 * startup) and then `exec`s the CLI. It must pass arguments and exit codes through, become the
 * CLI's process (no shell left as a parent), find the CLI through symlinks (npm links the bin)
 * and keep a value the user has set.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertBuilt, machineClockEnv, REPO_ROOT } from '../e2e/harness.js';

const LAUNCHER = join(REPO_ROOT, 'bin', 'venue-etl');
/** What the launcher sets for every command when the environment does not (docs/scaling.md, "Memory"). */
const DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;
/** ... and for the commands that write a run (sync, backfill). */
const WRITING_DEFAULTS = { ...DEFAULTS, DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:0,muzzy_decay_ms:0' } as const;
const VARIABLES = Object.keys(WRITING_DEFAULTS);

const root = mkdtempSync(join(tmpdir(), 'venue-etl-launcher-'));
beforeAll(assertBuilt);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The test's environment without the launcher's variables, with the test's `node` first on PATH. */
function env(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const base = machineClockEnv(extra);
  for (const name of VARIABLES) if (!(name in extra)) delete base[name];
  base.PATH = `${dirname(process.execPath)}:${base.PATH ?? ''}`;
  return base;
}

function launch(command: string, args: readonly string[], cwd = root) {
  const result = spawnSync(command, args, { cwd, env: env(), encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw result.error;
  return result;
}

const PackageVersion = z.object({ version: z.string() });

describe('bin/venue-etl', () => {
  it('passes arguments through verbatim and returns the CLI exit code', () => {
    const { version } = PackageVersion.parse(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')));
    const ok = launch(LAUNCHER, ['--version']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout.trim()).toBe(version);

    // Spaces, a quote and a glob character stay one argument each: the CLI names the exact path.
    const odd = join(root, 'a b', "it's *.json");
    const missing = launch(LAUNCHER, ['status', '--config', odd]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`VENUE_ETL_CONFIG_MISSING: cannot read config file ${odd}`);

    const unknown = launch(LAUNCHER, ['no-such-command']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command "no-such-command"');
  });

  it('finds the CLI through a chain of relative symlinks, from another folder', () => {
    // As npm links a bin: <prefix>/bin/venue-etl -> ../lib/node_modules/venue-etl/bin/venue-etl,
    // here with one more link in between.
    const links = join(root, 'links', 'bin');
    const middle = join(root, 'links', 'lib');
    mkdirSync(links, { recursive: true });
    mkdirSync(middle, { recursive: true });
    symlinkSync(relative(middle, LAUNCHER), join(middle, 'venue-etl'));
    symlinkSync(join('..', 'lib', 'venue-etl'), join(links, 'venue-etl'));
    expect(readlinkSync(join(links, 'venue-etl'))).toBe('../lib/venue-etl');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const run = launch(join(links, 'venue-etl'), ['--version'], elsewhere);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  interface Seen {
    readonly environ: Map<string, string>;
    readonly cmdline: string[];
  }

  /** The environment and command line of the process the launcher started, as the kernel sees them. */
  function seen(pid: number): Seen {
    const read = (file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);
    const environ = new Map(read('environ').map((entry): [string, string] => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
    return { environ, cmdline: read('cmdline') };
  }

  /** Runs `args` through the launcher until `running` resolves (the CLI is at work), reads what it sees, then stops it. */
  async function whileRunning(
    args: readonly string[],
    extra: Readonly<Record<string, string>>,
    running: (child: ChildProcess) => Promise<void>,
  ): Promise<Seen> {
    const child = spawn(LAUNCHER, args, { cwd: root, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`exited ${code} before it was at work: ${stderr}`))));
    try {
      await Promise.race([running(child), ended]);
      return seen(child.pid ?? Number.NaN);
    } finally {
      // 'exit', not 'close': without exec a node child would keep the pipes open.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** The simulator through the launcher: its first line (its URL) is printed once it listens. */
  function simulator(extra: Readonly<Record<string, string>>): Promise<Seen> {
    return whileRunning(['simulate', '--port', '0', '--venues', '1', '--days', '1'], extra, async (child) => {
      if (!child.stdout) throw new Error('no stdout pipe');
      for await (const line of createInterface({ input: child.stdout })) if (line.startsWith('http://')) return;
      throw new Error('the simulator printed no URL');
    });
  }

  /** A sync through the launcher against an API that accepts connections and never answers: running once it connects. */
  async function syncThatWaits(extra: Readonly<Record<string, string>>): Promise<Seen> {
    const api = createServer();
    const connected = new Promise<void>((resolve) => api.once('connection', () => resolve()));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = z.object({ port: z.number() }).parse(api.address());
      const dir = mkdtempSync(join(root, 'sync-'));
      const config = join(dir, 'venue-etl.config.json');
      writeFileSync(
        config,
        JSON.stringify({
          api: { baseUrl: `http://127.0.0.1:${port}`, token: 't' },
          scope: { venues: ['6d1f3c2a-0b4e-4c1a-9a57-2f8e1d3b4c5a'] },
          warehouse: { path: join(dir, 'w.duckdb') },
        }),
      );
      return await whileRunning(['sync', '--config', config], extra, () => connected);
    } finally {
      api.close();
    }
  }

  it('sets the allocator variables when they are absent, in the CLI process itself (exec, no shell parent)', async () => {
    const { environ, cmdline } = await simulator({});
    for (const [name, value] of Object.entries(DEFAULTS)) expect(environ.get(name), name).toBe(value);
    // jemalloc's setting is for the commands that write a run only.
    expect(environ.has('DUCKDB_JE_MALLOC_CONF')).toBe(false);
    // The spawned pid is Node running the CLI: the shell replaced itself.
    expect(cmdline.some((arg) => arg.endsWith(join('dist', 'src', 'cli.js')))).toBe(true);
    expect(cmdline.slice(-7)).toEqual(['simulate', '--port', '0', '--venues', '1', '--days', '1']);
  });

  it("sets jemalloc's decay for sync (and backfill) as well", async () => {
    const { environ, cmdline } = await syncThatWaits({});
    for (const [name, value] of Object.entries(WRITING_DEFAULTS)) expect(environ.get(name), name).toBe(value);
    expect(cmdline.slice(-3)).toEqual(['sync', '--config', expect.stringMatching(/venue-etl\.config\.json$/)]);
  });

  it("keeps the user's own values", async () => {
    const own = { MALLOC_MMAP_THRESHOLD_: '262144', DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:500' };
    for (const { environ } of [await simulator(own), await syncThatWaits(own)]) {
      for (const [name, value] of Object.entries(own)) expect(environ.get(name), name).toBe(value);
    }
  });
});
