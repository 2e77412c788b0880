import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnv, CLI, machineClockEnv, queryRows, REPO_ROOT, runCli, summaryNumber } from './harness.js';

let dir: string;

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-demo-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('venue-etl demo (npm start)', () => {
  it('syncs the simulator into a warehouse, exports Parquet and prints a report, with no config', async () => {
    const run = await runCli(['demo', '--dir', 'demo-data'], { cwd: dir, env: machineClockEnv(), timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/sync succeeded: \d+ slices/);
    expect(summaryNumber(run.stdout, /(\d+) rows written/)).toBeGreaterThan(1000);
    expect(run.stdout).toMatch(/last 7 days per venue/);
    // The dashboard of the demo warehouse, its path printed.
    const dashboard = join(dir, 'demo-data', 'dashboard.html');
    expect(run.stdout).toContain(`dashboard: ${dashboard}`);
    expect(existsSync(dashboard)).toBe(true);
    expect(readFileSync(dashboard, 'utf8')).toContain('id="dashboard-data"');

    const warehouse = join(dir, 'demo-data', 'warehouse.duckdb');
    const [counts] = await queryRows(
      warehouse,
      `SELECT
      (SELECT count(*) FROM series_points)::INTEGER AS series, (SELECT count(*) FROM summary_values)::INTEGER AS summaries,
      (SELECT count(*) FROM current_venue_roles)::INTEGER AS roles, (SELECT count(*) FROM accounts WHERE is_me)::INTEGER AS me`,
    );
    expect(Number(counts!.series)).toBeGreaterThan(0);
    expect(Number(counts!.summaries)).toBeGreaterThan(0);
    expect(Number(counts!.roles)).toBeGreaterThan(0);
    expect(Number(counts!.me)).toBe(1);
    expect(existsSync(join(dir, 'demo-data', 'parquet', 'series_points'))).toBe(true);

    // The config it leaves behind drives the read-side commands; its paths mean "beside this file".
    const followUp = join(dir, 'demo-data', 'venue-etl.config.json');
    const followUpConfig = JSON.parse(readFileSync(followUp, 'utf8')) as { warehouse: { path: string }; scope: { venues: { id: string; name: string }[] } };
    expect(followUpConfig.warehouse.path).toBe('warehouse.duckdb');
    // It names the simulator's venues: the reports show those names ("North Hostel Lisbon", not a00faf44).
    const ranking = await runCli(['report', 'venue-ranking', '--format', 'json', '--config', followUp], { cwd: dir, env: childEnv() });
    expect(ranking.code, ranking.stderr).toBe(0);
    const names = new Map(followUpConfig.scope.venues.map((v) => [v.id, v.name]));
    const rows = JSON.parse(ranking.stdout) as { venue_id: string; venue: string }[];
    expect(rows).toHaveLength(names.size);
    // The name, with the short id only where two venues share it.
    for (const r of rows) expect([names.get(r.venue_id), `${names.get(r.venue_id)} (${r.venue_id.slice(0, 8)})`]).toContain(r.venue);
    expect(run.stdout).toContain(`  ${String(followUpConfig.scope.venues[0]!.name).slice(0, 28)}`);
    const check = await runCli(['check', '--config', followUp], { cwd: dir, env: childEnv() });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const parquet = await runCli(['sql', 'SELECT count(*) AS n FROM series_points', '--parquet', '--format', 'csv', '--config', followUp], {
      cwd: dir,
      env: childEnv(),
    });
    expect(parquet.stdout.trim().split('\n')[1]).toBe(String(counts!.series));

    // What to try next fits 80 columns and runs as printed, from the folder it says to cd into.
    const next = run.stdout
      .slice(run.stdout.indexOf('\nnext:\n') + 1)
      .trimEnd()
      .split('\n');
    expect(next.slice(0, 2)).toEqual(['next:', '  cd demo-data']);
    expect(next.filter((line) => line.length > 80)).toEqual([]);
    // The folder is outside the checkout: `npx venue-etl` would look in the npm registry there.
    expect(next.filter((line) => line.includes('npx'))).toEqual([]);
    expect(next).toContain('  # venue-etl: `npm link` in the checkout puts it on your PATH');
    const commands = next.filter((line) => line.startsWith('  venue-etl ') && !line.includes(' demo '));
    expect(commands.length).toBeGreaterThan(5);
    for (const line of commands) {
      const local = line.replace('venue-etl', `'${process.execPath}' '${CLI}'`);
      const ran = spawnSync('sh', ['-c', local], { cwd: join(dir, 'demo-data'), env: childEnv(), encoding: 'utf8' });
      expect(ran.status, `${line}\n${ran.stderr}`).toBe(0);
    }

    // Run again: incremental, nothing changed upstream, nothing written.
    const again = await runCli(['demo', '--dir', 'demo-data'], { cwd: dir, env: machineClockEnv(), timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(summaryNumber(again.stdout, /(\d+) rows written/)).toBe(0);
    // Two demos and a dozen commands, each a process of its own: 95 s on a loaded 2-core machine.
  }, 300_000);
});

describe('npx venue-etl in the checkout', () => {
  it("runs the checkout's own bin from a folder inside it (the demo prints commands that way)", () => {
    const npx = spawnSync('npx', ['--no', '--', 'venue-etl', 'completion', 'bash'], { cwd: join(REPO_ROOT, 'test'), env: childEnv(), encoding: 'utf8' });
    if (npx.error) throw new Error(`this test needs npx on PATH: ${npx.error.message}`);
    expect(npx.status, npx.stderr).toBe(0);
    expect(npx.stdout).toContain('venue-etl completion for bash');
  });
});
