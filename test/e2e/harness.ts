/**
 * End-to-end harness: the simulator runs in the test process, the CLI runs as users run it
 * (the built `dist/src/cli.js` as a child process), and the warehouse is a real DuckDB file in
 * a temp dir, opened read-only between runs (one process may hold the write lock).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { CLI, REPO_ROOT } from '../dist.js';

export { assertBuilt, CLI, REPO_ROOT } from '../dist.js';

/** The config refers to the token through this variable: no secret sits in the file. */
export const TOKEN_ENV = 'VENUE_API_TOKEN';

// ---------------------------------------------------------------------------------------
// Dates (UTC), the same arithmetic the CLI uses
// ---------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/**
 * The day the tests run on, read once per test process: every fixture, the simulator (its
 * `today` and the `Date` header's clock) and the CLI children (VENUE_ETL_TEST_NOW, set by
 * `childEnv`) agree on it, so a run that crosses midnight UTC still sees one day. Noon, so that
 * a day's arithmetic never lands on a boundary.
 */
const TEST_TODAY = new Date().toISOString().slice(0, 10);
export const TEST_NOW = `${TEST_TODAY}T12:00:00Z`;

/** The tests' today (see TEST_TODAY), not the machine's clock at the time of the call. */
export function todayUtc(): string {
  return TEST_TODAY;
}

/** The simulator's clock option for the tests' today: its `Date` header reads TEST_NOW. */
export const testClock = (): Date => new Date(TEST_NOW);

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

// ---------------------------------------------------------------------------------------
// Fixture: simulator + temp dir + config file
// ---------------------------------------------------------------------------------------

export interface ConfigOverrides {
  /** Another warehouse file (e.g. a clean run to compare with), in the same temp dir. */
  readonly warehousePath?: string;
  readonly api?: Readonly<Record<string, unknown>>;
  readonly sync?: Readonly<Record<string, unknown>>;
  /** Venue ids, or `{id, name}` entries (scope.venues takes both). */
  readonly scope?: { readonly venues?: readonly (string | { readonly id: string; readonly name?: string })[]; readonly projects?: readonly string[] };
  /** Other top-level blocks (notify, metrics, lineage, freshness…), written as given. */
  readonly blocks?: Readonly<Record<string, unknown>>;
}

export interface Fixture {
  readonly sim: Simulator;
  readonly dir: string;
  readonly configPath: string;
  readonly warehousePath: string;
  /** Every venue of the simulated world (all in scope unless overridden). */
  readonly venues: readonly string[];
  readonly projects: readonly string[];
  /** The child's environment: the token in VENUE_API_TOKEN. */
  readonly env: NodeJS.ProcessEnv;
  /** Rewrites the config file (or writes another one at `file`) with `extra` on top of the fixture's settings; returns its path. */
  writeConfig(overrides?: ConfigOverrides, file?: string): string;
  /** Runs `venue-etl <args> --config <this config>` (or `options.configPath`). */
  cli(args: readonly string[], options?: RunOptions & { readonly configPath?: string }): Promise<CliResult>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  readonly sim?: SimulatorOptions;
  readonly config?: ConfigOverrides;
}

export async function startFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const today = todayUtc();
  const sim = await startSimulator({ seed: 7, venues: 3, days: 60, today, clock: testClock, ...options.sim });
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-e2e-'));
  const configPath = join(dir, 'venue-etl.config.json');
  const warehousePath = join(dir, 'data', 'warehouse.duckdb');
  const venues = sim.world.venues.map((v) => v.id);
  const projects = sim.world.projects.map((p) => p.id);
  const env = childEnv({ [TOKEN_ENV]: sim.token });

  // Overrides apply on top of the fixture's own (options.config).
  const writeConfig = (extra: ConfigOverrides = {}, file = configPath): string => {
    const base = options.config ?? {};
    const overrides: ConfigOverrides = {
      ...base,
      ...extra,
      api: { ...base.api, ...extra.api },
      sync: { ...base.sync, ...extra.sync },
      scope: { ...base.scope, ...extra.scope },
      blocks: { ...base.blocks, ...extra.blocks },
    };
    const config = {
      api: { baseUrl: sim.url, token: `\${${TOKEN_ENV}}`, concurrency: 8, maxRetries: 8, timeoutMs: 10_000, ...overrides.api },
      scope: { venues: overrides.scope?.venues ?? venues, projects: overrides.scope?.projects ?? projects },
      sync: { startDate: addDays(today, -14), lookbackDays: 3, windowDays: 7, ...overrides.sync },
      warehouse: { path: overrides.warehousePath ?? warehousePath },
      parquet: { dir: join(dir, 'parquet') },
      log: { level: 'warn' },
      ...overrides.blocks,
    };
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
    return file;
  };
  writeConfig();

  return {
    sim,
    dir,
    configPath,
    warehousePath,
    venues,
    projects,
    env,
    writeConfig,
    cli: (args, runOptions = {}) => runCli([...args, '--config', runOptions.configPath ?? configPath], { env, cwd: dir, ...runOptions }),
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `childEnv` without the tests' clock: for a command that starts its own API on the machine's
 * clock (`demo`), where the tests' clock would only make the two disagree.
 */
export function machineClockEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env = childEnv(extra);
  delete env.VENUE_ETL_TEST_NOW;
  return env;
}

/**
 * The test process's environment without any venue-etl settings, plus the tests' clock
 * (VENUE_ETL_TEST_NOW = TEST_NOW: the CLI's today is the fixtures' today), plus `extra`.
 */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('VENUE_')) delete env[key];
  // Output is laid out to COLUMNS when set: a test asks for a width itself, never inherits one.
  delete env.COLUMNS;
  return { ...env, VENUE_ETL_TEST_NOW: TEST_NOW, ...extra };
}

// ---------------------------------------------------------------------------------------
// Running the CLI
// ---------------------------------------------------------------------------------------

export interface RunOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** SIGKILL the child this long after it started. */
  readonly killAfterMs?: number;
  /** SIGKILL the child as soon as a line of its stderr matches (the `killAfterMatches`-th such line). */
  readonly killWhenStderr?: RegExp;
  readonly killAfterMatches?: number;
  /** Runs `prefix… node cli.js …` (e.g. `/usr/bin/time -v`); kills then hit the prefix's process. */
  readonly prefix?: readonly string[];
  /** Give up (SIGKILL, then throw) after this long. Default 45 s. */
  readonly timeoutMs?: number;
  /** Sample the child's peak resident set (VmHWM of /proc/<pid>/status) until it exits. */
  readonly samplePeakRss?: boolean;
}

export interface CliResult {
  /** Exit status; null when killed by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Whether this harness killed it (killAfterMs / killWhenStderr). */
  readonly killed: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
  /** Last VmHWM seen (kB), with `samplePeakRss`. */
  readonly peakRssKb?: number;
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const started = Date.now();
  const command = options.prefix?.[0] ?? process.execPath;
  const argv = [...(options.prefix?.slice(1) ?? []), ...(options.prefix ? [process.execPath] : []), CLI, ...args];
  const child = spawn(command, argv, { cwd: options.cwd ?? REPO_ROOT, env: options.env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let killed = false;
  let timedOut = false;
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) {
      killed = true;
      child.kill('SIGKILL');
    }
  };
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  let pending = '';
  let matches = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stderr += text;
    if (options.killWhenStderr) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      matches += lines.filter((line) => options.killWhenStderr!.test(line)).length;
      if (matches >= (options.killAfterMatches ?? 1)) kill();
    }
  });
  const killTimer = options.killAfterMs === undefined ? undefined : setTimeout(kill, options.killAfterMs);
  let peakRssKb: number | undefined;
  const sampler = options.samplePeakRss
    ? setInterval(() => {
        try {
          const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (match) peakRssKb = Math.max(peakRssKb ?? 0, Number(match[1]));
        } catch {
          // Gone already: the last sample stands.
        }
      }, 20)
    : undefined;
  // A hang detector, not a speed check: a sync that takes 5-10 s on a quiet machine took 46 s
  // while both cores ran other builds and suites (load average 21).
  const guard = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs ?? 150_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      clearTimeout(guard);
      clearInterval(sampler);
      if (timedOut) {
        reject(new Error(`venue-etl ${args.join(' ')} did not finish in time\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        return;
      }
      resolve({ code, signal, killed, stdout, stderr, durationMs: Date.now() - started, ...(peakRssKb === undefined ? {} : { peakRssKb }) });
    });
  });
}

/** A failed expectation on a CLI run shows what it printed. */
export function describeRun(result: CliResult): string {
  return `exit ${result.code ?? result.signal}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

/** A number from the run summary's lines, e.g. `requests: 72 (0 retries)`. */
export function summaryNumber(stdout: string, pattern: RegExp): number {
  const match = pattern.exec(stdout);
  if (!match?.[1]) throw new Error(`no ${pattern} in:\n${stdout}`);
  return Number(match[1].replace(/,/g, ''));
}

export { seededRandom } from '../../bench/seeded-random.js';

// What the tests read back: the warehouse, and how two sets of facts differ.
export * from './warehouse-reads.js';
