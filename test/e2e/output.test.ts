/**
 * Output people can read and scripts can parse: tables and the progress bar fit the terminal,
 * `--format json` holds the figures the tables show, one api summary line at info, the per-stream
 * run summary also in `sync_runs.detail`, and an interrupted run exits with the code of the
 * status it was recorded with.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, assertBuilt, CLI, describeRun, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from './harness.js';

const WIDTH = 80;
let fx: Fixture;

beforeAll(async () => {
  assertBuilt();
  fx = await startFixture({ sim: { venues: 3, days: 60 }, config: { sync: { startDate: addDays(todayUtc(), -20), windowDays: 3 } } });
});
afterAll(async () => fx?.close());

const narrow = (extra: Record<string, string> = {}) => ({ env: { ...fx.env, COLUMNS: String(WIDTH), ...extra } });

function expectFits(text: string, width: number): void {
  const long = text.split('\n').filter((line) => line.length > width);
  expect(long, `lines over ${width} columns`).toEqual([]);
}

function logLines(result: CliResult): { level: number; msg: string; [key: string]: unknown }[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

interface StreamDetail {
  stream: string;
  slices: { planned: number; done: number; failed: number; skipped: number };
  requests: number;
  rowsWritten: number;
}

async function runDetail(runId: string): Promise<{ streams: StreamDetail[]; rowsWritten: number; requests: number }> {
  const [row] = await queryRows(
    fx.warehousePath,
    `SELECT detail->'streams' AS streams, rows_written::INTEGER AS rows_written, requests::INTEGER AS requests FROM sync_runs WHERE run_id = '${runId}'`,
  );
  return { streams: JSON.parse(String(row!.streams)) as StreamDetail[], rowsWritten: Number(row!.rows_written), requests: Number(row!.requests) };
}

describe('a sync in an 80-column terminal', () => {
  let first: CliResult;
  beforeAll(async () => {
    first = await fx.cli(['sync', '--log-level', 'info'], narrow());
  });

  it('prints a run summary with a line per stream that fits, and stores the same in sync_runs.detail', async () => {
    expect(first.code, describeRun(first)).toBe(0);
    expectFits(first.stdout, WIDTH);
    const runId = /sync run (\S+) succeeded/.exec(first.stdout)?.[1];
    expect(runId).toBeDefined();
    const detail = await runDetail(runId!);
    expect(detail.streams.map((s) => s.stream)).toEqual(detail.streams.map((s) => s.stream).sort());
    expect(detail.streams.length).toBeGreaterThan(5);
    // The per-stream figures add up to the run's own.
    expect(detail.streams.reduce((n, s) => n + s.rowsWritten, 0)).toBe(detail.rowsWritten);
    expect(detail.streams.reduce((n, s) => n + s.requests, 0)).toBe(detail.requests);
    for (const s of detail.streams) {
      expect(s.slices.done + s.slices.failed + s.slices.skipped).toBe(s.slices.planned);
      // The table row of the stream shows the same figures (a wrapped name continues below it).
      const row = new RegExp(
        `^${s.stream.slice(0, 8)}\\S*\\s+${s.slices.done}/${s.slices.planned}\\s+${s.slices.failed}\\s+${s.requests.toLocaleString('en-US')}\\s+${s.rowsWritten.toLocaleString('en-US')}\\s`,
        'm',
      );
      expect(first.stdout).toMatch(row);
    }
  });

  it('logs one api summary at info, the per-stream counts only at debug', async () => {
    const summaries = logLines(first).filter((line) => line.msg.startsWith('api summary'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ level: 30, msg: 'api summary', failures: 0, aborted: 0 });
    // Every request that was answered brought a document: pages are not 0 next to requests.
    expect(summaries[0]!.pages).toBe(Number(summaries[0]!.requests) - Number(summaries[0]!.retries));
    const debug = await fx.cli(['sync', '--log-level', 'debug'], narrow());
    expect(debug.code, describeRun(debug)).toBe(0);
    const perStream = logLines(debug).filter((line) => line.msg === 'api summary of a stream');
    expect(perStream.length).toBeGreaterThan(5);
    expect(perStream.every((line) => line.level === 20)).toBe(true);
  });

  it('prints the run summary as one JSON document with --format json', async () => {
    const json = await fx.cli(['sync', '--format', 'json'], narrow());
    expect(json.code, describeRun(json)).toBe(0);
    const summary = JSON.parse(json.stdout) as {
      runId: string;
      status: string;
      exitCode: number;
      rowsWritten: number;
      requests: number;
      streams: StreamDetail[];
    };
    expect(summary).toMatchObject({ status: 'succeeded', exitCode: 0 });
    const detail = await runDetail(summary.runId);
    expect(summary.streams).toEqual(detail.streams);
    expect(summary.rowsWritten).toBe(detail.rowsWritten);
    expect(summary.requests).toBe(detail.requests);
  });
});

describe('read commands at 80 columns and as JSON', () => {
  beforeAll(async () => {
    const synced = await fx.cli(['sync']);
    expect(synced.code, describeRun(synced)).toBe(0);
  });

  it('status fits and --format json holds the rows the table shows', async () => {
    const table = await fx.cli(['status'], narrow());
    expect(table.code, describeRun(table)).toBe(0);
    expectFits(table.stdout, WIDTH);
    const json = await fx.cli(['status', '--format', 'json'], narrow());
    expect(json.code, describeRun(json)).toBe(0);
    const status = JSON.parse(json.stdout) as {
      streams: { stream: string; oldest_cursor: string }[];
      lastRuns: { run_id: string; status: string }[];
      failedSlices: unknown[];
    };
    expect(status.streams.length).toBeGreaterThan(5);
    for (const s of status.streams) {
      expect(table.stdout).toContain(s.stream);
      expect(table.stdout).toContain(s.oldest_cursor);
    }
    for (const run of status.lastRuns) expect(table.stdout).toContain(run.run_id);
    expect(status.failedSlices).toEqual([]);
  });

  it('check fits and --format json holds each check with the exit code unchanged', async () => {
    const table = await fx.cli(['check'], narrow());
    expectFits(table.stdout, WIDTH);
    const json = await fx.cli(['check', '--format', 'json'], narrow());
    expect(json.code).toBe(table.code);
    const result = JSON.parse(json.stdout) as { passed: boolean; checks: { name: string; status: string; rows: number }[] };
    expect(result.checks.length).toBeGreaterThan(3);
    expect(result.passed).toBe(table.code === 0);
    for (const check of result.checks)
      expect(table.stdout).toMatch(new RegExp(`^${check.name}\\s+${check.status === 'ok' ? 'ok' : check.status.toUpperCase()}\\s+${check.rows}\\b`, 'm'));
  });

  it('the report list and jobs fit and have --format json', async () => {
    const list = await fx.cli(['report'], narrow());
    expect(list.code, describeRun(list)).toBe(0);
    expectFits(list.stdout, WIDTH);
    const reports = JSON.parse((await fx.cli(['report', '--format', 'json'], narrow())).stdout) as { name: string; description: string }[];
    expect(reports.map((r) => r.name)).toContain('freshness');
    for (const report of reports) expect(list.stdout).toMatch(new RegExp(`^${report.name}\\s`, 'm'));

    const jobs = await fx.cli(['jobs', '--after', '2026-03-28T12:00:00Z'], narrow());
    expect(jobs.code, describeRun(jobs)).toBe(0);
    expectFits(jobs.stdout, WIDTH);
    const listed = JSON.parse((await fx.cli(['jobs', '--after', '2026-03-28T12:00:00Z', '--format', 'json'], narrow())).stdout) as {
      timezone: string;
      jobs: { name: string; schedule: string; next: string[] }[];
    };
    expect(listed.timezone).toBe('UTC');
    expect(listed.jobs.map((j) => j.name)).toContain('nightly-sync');
    for (const job of listed.jobs) {
      expect(job.next).toHaveLength(3);
      for (const at of job.next) expect(jobs.stdout).toContain(at);
    }
  });

  it('sql lays a wide result out to the terminal like report does', async () => {
    const query = `SELECT stream, repeat('wide ', 30) AS wide, venue_id, count(*) AS n FROM series_points GROUP BY ALL ORDER BY ALL LIMIT 3`;
    const table = await fx.cli(['sql', query], { env: { ...fx.env, COLUMNS: '60' } });
    expect(table.code, describeRun(table)).toBe(0);
    expectFits(table.stdout, 60);
    const rows = JSON.parse((await fx.cli(['sql', query, '--format', 'json'])).stdout) as { stream: string; n: number }[];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(table.stdout).toContain(row.stream.slice(0, 8));
  });

  it('refuses --format csv where the output is not rows (exit 2)', async () => {
    const bad = await fx.cli(['status', '--format', 'csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of table, json/);
  });
});

describe('progress on a real terminal', () => {
  it('draws a bar for sync, backfill and export that never exceeds a 60-column terminal', async () => {
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (script.status !== 0) throw new Error('this test needs util-linux `script` to run the CLI on a pseudo-terminal');
    const slow = await startFixture({ sim: { venues: 3, days: 60, latencyMs: 40 }, config: { sync: { startDate: addDays(todayUtc(), -30), windowDays: 2 } } });
    try {
      const runs: [string[], string, number][] = [
        [['sync'], 'slices', 2],
        [['backfill', '--from', addDays(todayUtc(), -40), '--to', addDays(todayUtc(), -1), '--window-days', '2'], 'slices', 2],
        // Files written of files planned; an export this small may end before the first redraw:
        // its last frame is drawn in any case.
        [['export'], 'files', 1],
      ];
      for (const [args, unit, frames] of runs) {
        const command = `stty cols 60; ${[process.execPath, CLI, ...args, '--config', slow.configPath].map((a) => `'${a}'`).join(' ')}`;
        // Asynchronously: the simulator answers from this process.
        const run = await inPty(command, slow);
        expect(run.status, run.stdout.slice(-2000)).toBe(0);
        const segments = run.stdout.replaceAll('\u001b[K', '').split(/[\r\n]+/);
        const bars = segments.filter((segment) => new RegExp(`\\[[#.]+\\] \\d+/\\d+ ${unit}`).test(segment));
        expect(bars.length, `${args[0]}: no progress bar in\n${run.stdout.slice(0, 2000)}`).toBeGreaterThanOrEqual(frames);
        // Column 60 is left free: a line that fills it makes some terminals wrap.
        expect(bars.filter((bar) => bar.length > 59)).toEqual([]);
        if (unit === 'files') {
          // One file per stream and month of each partitioned table: many, all written.
          const [done, planned] = /(\d+)\/(\d+) files/.exec(bars.at(-1)!)!.slice(1).map(Number);
          expect(planned).toBeGreaterThan(20);
          expect(done).toBe(planned);
        }
      }
    } finally {
      await slow.close();
    }
  }, 150_000);
});

function inPty(command: string, at: Fixture): Promise<{ status: number | null; stdout: string }> {
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: at.env, cwd: at.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout });
    }),
  );
}

describe('Ctrl-C during a backfill', () => {
  it('exits with the code of the status the run was recorded with (partial: 3)', async () => {
    const slow = await startFixture({ sim: { venues: 3, days: 60, latencyMs: 40 } });
    try {
      const args = [
        CLI,
        'backfill',
        '--from',
        addDays(todayUtc(), -50),
        '--to',
        addDays(todayUtc(), -1),
        '--window-days',
        '2',
        '--config',
        slow.configPath,
        '--log-level',
        'debug',
      ];
      const child = spawn(process.execPath, args, { env: slow.env, cwd: slow.dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let sent = false;
      child.stdout.resume();
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Enough answers for several slices to be done: the run is partial, not failed.
        if (!sent && (stderr.match(/"msg":"api request"/g)?.length ?? 0) >= 60) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      const code = await exited;
      expect(sent, stderr.slice(-2000)).toBe(true);
      const runs = await queryRows(slow.warehousePath, `SELECT status, detail->>'interrupted' AS interrupted FROM sync_runs WHERE job = 'backfill'`);
      expect(runs).toEqual([{ status: 'partial', interrupted: 'true' }]);
      expect(code).toBe(3);
    } finally {
      await slow.close();
    }
  }, 120_000);
});

describe('a reader that closes the output early (`| head`)', () => {
  beforeAll(async () => {
    const synced = await fx.cli(['sync']);
    expect(synced.code, describeRun(synced)).toBe(0);
  });

  /** Runs the CLI with stdout on a pipe that is closed after the first piece arrives. */
  function readFirstPiece(args: readonly string[]): Promise<{ code: number | null; first: string; stderr: string }> {
    const child = spawn(process.execPath, [CLI, ...args, '--config', fx.configPath], { env: fx.env, cwd: fx.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString();
      child.stdout.destroy();
    });
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, first, stderr })));
  }

  // 3M rows: far more than the pipe holds, so the command is still writing when the reader goes.
  const query = `SELECT i, 'row ' || i AS label FROM range(3000000) t(i) ORDER BY i`;

  it.each(['csv', 'json', 'table'])(
    'stops the read and exits 0 without a word (--format %s)',
    async (format) => {
      const { code, first, stderr } = await readFirstPiece(['sql', query, '--format', format]);
      expect(first.length).toBeGreaterThan(0);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
    120_000,
  );
});
