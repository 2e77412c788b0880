/**
 * `npm install -g` of the packed package, as a user outside the checkout gets it: `npm pack` of
 * this repository into a temp folder, installed with a temp `--prefix` (dependencies from the
 * npm cache or registry), then the installed `venue-etl` run from a folder that is not the
 * checkout. npm missing, or the registry unreachable with an empty cache, fails this test.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertBuilt, machineClockEnv, REPO_ROOT } from '../e2e/harness.js';
import { queryRows } from '../e2e/warehouse-reads.js';

const root = mkdtempSync(join(tmpdir(), 'venue-etl-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(assertBuilt);

const PackResult = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) }));

function run(command: string, args: readonly string[], cwd: string, timeout = 240_000): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: machineClockEnv() });
  if (result.error) throw new Error(`${command} ${args.join(' ')} could not run: ${result.error.message}`);
  return result;
}
const shown = (r: SpawnSyncReturns<string>): string => `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr.slice(-4000)}`;

describe('the packed package, installed with npm install -g', () => {
  it('ships what the CLI runs with, not the build of the benchmarks, and installs a working venue-etl', { timeout: 300_000 }, async () => {
    // --ignore-scripts: pack the dist/ the test run built (prepare would rebuild it under other tests).
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], REPO_ROOT);
    expect(pack.status, shown(pack)).toBe(0);
    const [packed] = PackResult.parse(JSON.parse(pack.stdout));
    const files = packed!.files.map((f) => f.path);
    for (const needed of [
      'bin/venue-etl',
      'dist/src/cli.js',
      'dist/jobs/index.js',
      'sql/migrations/001_initial.sql',
      'sql/reports/daily-devices.sql',
      'src/dashboard/assets',
      'config.example.json',
    ]) {
      expect(
        files.some((f) => f === needed || f.startsWith(`${needed}/`)),
        `${needed} is packed`,
      ).toBe(true);
    }
    expect(
      files.filter((f) => f.startsWith('dist/bench/') || f.startsWith('dist/test/') || f.startsWith('test/') || f === 'dist/tsconfig.tsbuildinfo'),
    ).toEqual([]);

    const prefix = join(root, 'prefix');
    const install = run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(root, packed!.filename)], root);
    expect(install.status, shown(install)).toBe(0);

    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const bin = join(prefix, 'bin', 'venue-etl');
    const version = run(bin, ['--version'], elsewhere);
    expect(version.status, shown(version)).toBe(0);
    expect(version.stdout.trim()).toBe(z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))).version);

    const demoDir = join(root, 'demo');
    const demo = run(bin, ['demo', '--dir', demoDir], elsewhere, 120_000);
    expect(demo.status, shown(demo)).toBe(0);
    // Outside a checkout the next steps name the installed command (npx would look in the registry).
    expect(demo.stdout).toContain('\n  venue-etl report daily-devices\n');
    expect(demo.stdout).not.toContain('npx');
    const warehouse = join(demoDir, 'warehouse.duckdb');
    expect(existsSync(warehouse)).toBe(true);
    const [counted] = await queryRows(warehouse, 'SELECT count(*)::INTEGER AS n FROM series_points');
    expect(Number(counted!.n)).toBeGreaterThan(0);
    // The dashboard reads its assets from the installed package's src/dashboard/assets.
    expect(existsSync(join(demoDir, 'dashboard.html'))).toBe(true);
  });

  it('npm pack --pack-destination puts the tarball into a folder that does not exist yet', { timeout: 300_000 }, () => {
    // With its scripts (prepack creates the folder); the build they run finds dist/ up to date.
    const destination = join(root, 'packed', 'not', 'yet');
    const pack = run('npm', ['pack', '--json', '--pack-destination', destination], REPO_ROOT);
    expect(pack.status, shown(pack)).toBe(0);
    const [packed] = PackResult.parse(JSON.parse(pack.stdout));
    expect(existsSync(join(destination, packed!.filename))).toBe(true);
  });
});
