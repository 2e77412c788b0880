/**
 * What a new user meets after the first sync, through the built CLI against the simulator: the
 * same option names across commands, output a script can read, hints that say what to run next.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REBUILD_ROLLUP, runOnFile } from '../readside/fixture.js';
import { addDays, assertBuilt, CLI, describeRun, queryRows, startFixture, todayUtc, type Fixture } from './harness.js';

let fx: Fixture;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 3, days: 60 }, config: { sync: { startDate: addDays(todayUtc(), -20), windowDays: 5 } } });
  const synced = await fx.cli(['sync']);
  expect(synced.code, describeRun(synced)).toBe(0);
});
afterAll(async () => fx?.close());

describe('sync --to', () => {
  it('is the last day, as in backfill; --until, its first name, still works and must agree', async () => {
    const last = addDays(todayUtc(), -3);
    const run = await fx.cli(['sync', '--to', last]);
    expect(run.code, describeRun(run)).toBe(0);
    const [recorded] = await queryRows(fx.warehousePath, `SELECT detail->>'until' AS until FROM sync_runs ORDER BY started_at DESC LIMIT 1`);
    expect(recorded!.until).toBe(last);
    const help = await fx.cli(['sync', '--help']);
    expect(help.stdout).toContain('--to DATE');
    expect(help.stdout).not.toContain('--until');
    const both = await fx.cli(['sync', '--to', last, '--until', addDays(last, -1)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('disagree');
  });
});

describe('export --format json', () => {
  it('prints what the table shows as one JSON document: per table and in total', async () => {
    const run = await fx.cli(['export', '--format', 'json']);
    expect(run.code, describeRun(run)).toBe(0);
    const report = JSON.parse(run.stdout) as {
      dir: string;
      mode: string;
      tables: { table: string; written: number; unchanged: number; rows: number }[];
      totals: { written: number; rows: number };
    };
    expect(report.dir).toBe(join(fx.dir, 'parquet'));
    const series = report.tables.find((t) => t.table === 'series_points');
    expect(series?.written).toBeGreaterThan(0);
    expect(report.totals.written).toBe(report.tables.reduce((n, t) => n + t.written, 0));
    const [counted] = await queryRows(fx.warehousePath, 'SELECT count(*)::INTEGER AS n FROM series_points');
    expect(series?.rows).toBe(Number(counted!.n));
    // Nothing changed since: the second export writes nothing, and says so the same way.
    const again = JSON.parse((await fx.cli(['export', '--format', 'json'])).stdout) as { totals: { written: number; unchanged: number } };
    expect(again.totals.written).toBe(0);
    expect(again.totals.unchanged).toBe(report.totals.written);
  });
});

describe('sql - and sql --file', () => {
  // Quotes and a line break: what makes a query awkward to pass as one shell argument.
  const query = "SELECT 'it''s' AS said,\n       count(*)::INTEGER AS n FROM series_points";

  it('reads the query from standard input or from a file, as the argument would give it', async () => {
    const argument = await fx.cli(['sql', query, '--format', 'json']);
    expect(argument.code, describeRun(argument)).toBe(0);
    const piped = spawnSync(process.execPath, [CLI, 'sql', '-', '--format', 'json', '--config', fx.configPath], {
      input: query,
      env: fx.env,
      encoding: 'utf8',
    });
    expect(piped.status, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual(JSON.parse(argument.stdout));
    const file = join(fx.dir, 'query.sql');
    writeFileSync(file, `${query};\n`);
    const fromFile = await fx.cli(['sql', '--file', file, '--format', 'json']);
    expect(fromFile.code, describeRun(fromFile)).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual(JSON.parse(argument.stdout));
    const missing = await fx.cli(['sql', '--file', join(fx.dir, 'missing.sql')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --file');
  });
});

describe('Ctrl-C of backfill --force', () => {
  it('says to run it again without --force, which continues where it stopped instead of starting over', async () => {
    const slow = await startFixture({ sim: { venues: 3, days: 30, latencyMs: 40 } });
    try {
      const range = ['backfill', '--from', addDays(todayUtc(), -12), '--to', addDays(todayUtc(), -1), '--window-days', '2'];
      const first = await slow.cli(range, { timeoutMs: 120_000 });
      expect(first.code, describeRun(first)).toBe(0);
      // Forced again (it had finished), and stopped with SIGINT once some slices are done.
      const child = spawn(process.execPath, [CLI, ...range, '--force', '--config', slow.configPath, '--log-level', 'debug'], {
        env: slow.env,
        cwd: slow.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (!sent && (stderr.match(/"msg":"api request"/g)?.length ?? 0) >= 60) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      expect(await exited, stderr.slice(-2000)).toBe(3);
      expect(stdout).toContain('interrupted (received SIGINT): what finished is committed; run the same command without --force to continue');
      expect(stdout).not.toContain('run the same command again');
      // As told: without --force, it continues (it does not say "already finished", nor redo the done slices).
      const resumed = await slow.cli(range, { timeoutMs: 120_000 });
      expect(resumed.code, describeRun(resumed)).toBe(0);
      expect(resumed.stdout).toMatch(/backfill \w+ resumed: [1-9]\d* slices were already done/);
    } finally {
      await slow.close();
    }
  }, 300_000);
});

describe('a failed check', () => {
  it('prints the command that lists its rows and the backfill that fixes them, which does', async () => {
    const venue = fx.venues[0]!;
    const [gapFrom, gapTo] = [addDays(todayUtc(), -9), addDays(todayUtc(), -8)];
    await runOnFile(fx.warehousePath, [
      `DELETE FROM series_points WHERE venue_id = '${venue}' AND stream = 'venue-devices-history' AND timezone('UTC', ts)::DATE BETWEEN '${gapFrom}' AND '${gapTo}'`,
      // Written by hand, not by a load: the daily rollup the checks read is summed again.
      REBUILD_ROLLUP(),
    ]);
    const fix = `venue-etl backfill --from ${gapFrom} --to ${gapTo} --streams venue-devices-history --venues ${venue} --grain day --force --config ${fx.configPath}`;
    const table = await fx.cli(['check']);
    expect(table.code, describeRun(table)).toBe(1);
    expect(table.stdout).toContain(`series-gaps:\n  every row:\n    venue-etl check series-gaps --config ${fx.configPath}\n  to fix it:\n    ${fix}\n`);
    // On a terminal the commands wrap as shell continuations: copied, they still run as one.
    const narrow = await fx.cli(['check'], { env: { ...fx.env, COLUMNS: '80' } });
    expect(narrow.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(narrow.stdout.replace(/ \\\n +/g, ' ')).toContain(`  to fix it:\n    ${fix}\n`);
    const json = JSON.parse((await fx.cli(['check', '--format', 'json'])).stdout) as { checks: { name: string; list?: string; fix?: string }[] };
    expect(json.checks.find((c) => c.name === 'series-gaps')).toMatchObject({ list: `venue-etl check series-gaps --config ${fx.configPath}`, fix });

    const rows = await fx.cli(['check', 'series-gaps', '--format', 'json']);
    expect(rows.code).toBe(1);
    expect(JSON.parse(rows.stdout)).toEqual([
      { venue_id: venue, stream: 'venue-devices-history', granularity: 'day', gap_from: gapFrom, gap_to: gapTo, missing_days: 2 },
    ]);
    const fixed = await fx.cli(
      fix
        .replace(/^venue-etl /, '')
        .replace(/ --config \S+$/, '')
        .split(' '),
    );
    expect(fixed.code, describeRun(fixed)).toBe(0);
    const after = await fx.cli(['check', 'series-gaps']);
    expect(after.code, describeRun(after)).toBe(0);
  });
});

describe('report peak-hours without hourly data', () => {
  it('says how to get it (on stderr: stdout keeps the rows), and doing so fills the report', async () => {
    const day = addDays(todayUtc(), -2);
    const empty = await fx.cli(['report', 'peak-hours', '--from', day, '--to', day, '--format', 'json']);
    expect(empty.code, describeRun(empty)).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    expect(empty.stderr).toContain('peak-hours found no hourly data');
    expect(empty.stderr).toContain('"historyGrain": ["day", "hour"]');
    expect(empty.stderr).toContain(`venue-etl backfill --from ${day} --to ${day} --grain hour`);
    try {
      fx.writeConfig({ sync: { historyGrain: ['day', 'hour'] } });
      const backfill = await fx.cli(['backfill', '--from', day, '--to', day, '--grain', 'hour']);
      expect(backfill.code, describeRun(backfill)).toBe(0);
      const filled = await fx.cli(['report', 'peak-hours', '--from', day, '--to', day, '--format', 'json']);
      expect(filled.code, describeRun(filled)).toBe(0);
      expect((JSON.parse(filled.stdout) as unknown[]).length).toBeGreaterThan(0);
      expect(filled.stderr).not.toContain('no hourly data');
    } finally {
      fx.writeConfig();
    }
  });
});

describe('status on terminals of different widths', () => {
  it('never splits a timestamp, a date or an id across lines, and fits the width', async () => {
    const json = JSON.parse((await fx.cli(['status', '--format', 'json'])).stdout) as {
      streams: Record<string, string | number | boolean | null>[];
      lastRuns: Record<string, string | number | null>[];
    };
    const whole = [
      ...json.streams.flatMap((s) => [s.oldest_cursor, s.last_moved_at, s.last_run_id]),
      ...json.lastRuns.flatMap((r) => [r.run_id, r.started_at, r.finished_at]),
    ]
      .filter((value): value is string => typeof value === 'string')
      // The table shows timestamps to the second.
      .map((value) => value.replace(/\.\d+Z$/, 'Z'));
    expect(whole.length).toBeGreaterThan(10);
    for (const width of [80, 100, 130, 160, 200]) {
      const run = await fx.cli(['status'], { env: { ...fx.env, COLUMNS: String(width) } });
      expect(run.code, describeRun(run)).toBe(0);
      const lines = run.stdout.split('\n');
      expect(
        lines.filter((line) => line.length > width),
        `at ${width}`,
      ).toEqual([]);
      for (const value of whole)
        expect(
          lines.some((line) => line.includes(value)),
          `${value} on one line at ${width} columns`,
        ).toBe(true);
    }
  });
});

describe('sync with an empty scope', () => {
  it('warns, in the summary, the JSON and the log, that the venue and project streams load nothing', async () => {
    const config = fx.writeConfig({ scope: { venues: [], projects: [] }, warehousePath: join(fx.dir, 'empty-scope.duckdb') }, join(fx.dir, 'empty-scope.json'));
    const run = await fx.cli(['sync'], { configPath: config });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain('warning:  VENUE_SCOPE_EMPTY: scope.venues and scope.projects list no ids, so the venue and project streams load nothing.');
    expect(run.stderr).toContain('"code":"VENUE_SCOPE_EMPTY"');
    const json = JSON.parse((await fx.cli(['sync', '--format', 'json'], { configPath: config })).stdout) as { warnings: string[] };
    expect(json.warnings.some((w) => w.startsWith('VENUE_SCOPE_EMPTY'))).toBe(true);
    // Streams that need no ids (the token's own account): nothing to warn about.
    const accounts = await fx.cli(['sync', '--streams', 'accounts'], { configPath: config });
    expect(accounts.code, describeRun(accounts)).toBe(0);
    expect(accounts.stdout).not.toContain('VENUE_SCOPE_EMPTY');
    // The fixture's own scope has venues and projects.
    expect((await fx.cli(['sync'])).stdout).not.toContain('VENUE_SCOPE_EMPTY');
  });
});
