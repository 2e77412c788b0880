/**
 * A corrupt warehouse (one byte flipped in a copy of a real one) under the built CLI. DuckDB
 * checksums each 256 KiB block: the flip fails every read of its block, and nothing else. A
 * flip in a block of `series_points` must stop `sync` at its first read of that block with
 * VENUE_WAREHOUSE_CORRUPT and the recovery steps, with no commit after it (each transaction
 * announces itself through the test hook); one in a block of the daily rollup must stop the
 * reports, checks and dashboard that read it; a flip in the file's header must make every command
 * refuse the file at open with the same code.
 */
import { copyFileSync, closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from '../e2e/harness.js';
import { eventBody, post, receiverOptions } from '../receiver/helpers.js';
import { reportFigure } from './figures.js';

/** DuckDB's file: three 4 KiB header blocks, then blocks of 256 KiB, each starting with its checksum. */
const HEADER_BYTES = 3 * 4096;
const BLOCK_BYTES = 262_144;
const PAUSED = 'venue-etl: paused before commit';

let fixture: Fixture;
let base: string;
let journalDir: string;
const startDate = addDays(todayUtc(), -20);
const yesterday = addDays(todayUtc(), -1);

beforeAll(async () => {
  assertBuilt();
  fixture = await startFixture({ sim: { seed: 41, venues: 3, days: 40 }, config: { sync: { startDate, windowDays: 7 } } });
  const loaded = await fixture.cli(['sync'], { timeoutMs: 150_000 });
  expect(loaded.code, describeRun(loaded)).toBe(0);
  base = join(fixture.dir, 'base.duckdb');
  copyFileSync(fixture.warehousePath, base);
  // A journal holding events, so that merge-events has something to write.
  journalDir = mkdtempSync(join(tmpdir(), 'venue-etl-corrupt-journal-'));
  const receiver = await startReceiver(receiverOptions({ journalDir, warehousePath: fixture.warehousePath }));
  for (let visits = 1; visits <= 3; visits++) expect((await post(receiver.url, eventBody({ visits }))).status).toBe(200);
  await receiver.close();
}, 180_000);
afterAll(async () => {
  await fixture?.close();
  if (journalDir) rmSync(journalDir, { recursive: true, force: true });
});

/** The warehouse is `base` again, with the byte at `offset` flipped. */
function corruptAt(offset: number): void {
  rmSync(`${fixture.warehousePath}.wal`, { force: true });
  copyFileSync(base, fixture.warehousePath);
  const fd = openSync(fixture.warehousePath, 'r+');
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, offset);
    byte[0]! ^= 0x10;
    writeSync(fd, byte, 0, 1, offset);
  } finally {
    closeSync(fd);
  }
}

/** Where the first block of `table`'s data starts in `base`. */
async function firstBlockOffset(table: 'series_points' | 'series_daily'): Promise<number> {
  const [row] = await queryRows(base, `SELECT min(block_id)::INTEGER AS block FROM pragma_storage_info('${table}') WHERE persistent AND block_id >= 0`);
  return HEADER_BYTES + Number(row?.block) * BLOCK_BYTES;
}

const CORRUPT =
  /VENUE_WAREHOUSE_CORRUPT: the warehouse .* is corrupt: Corrupt database file[^\n]*\n +hint: venue-etl writes nothing more to it.*restore the latest backup, or rebuild it/;

function expectCorrupt(result: CliResult): void {
  expect(result.code, describeRun(result)).toBe(1);
  expect(`${result.stdout}${result.stderr}`, describeRun(result)).toMatch(CORRUPT);
  expect(result.stderr).not.toMatch(/VENUE_ETL_INTERNAL|VENUE_SQL_FAILED|next run retries/);
}

describe('a corrupt warehouse', () => {
  it('a flipped byte in a series block: sync stops at its first read with VENUE_WAREHOUSE_CORRUPT and commits nothing after it', async () => {
    corruptAt((await firstBlockOffset('series_points')) + 100);
    const sync = await fixture.cli(['sync', '--format', 'json', '--log-level', 'warn'], {
      env: { ...fixture.env, VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS: '1' },
      timeoutMs: 120_000,
    });
    expect(sync.code, describeRun(sync)).toBe(1);
    const summary = JSON.parse(sync.stdout) as { fatal?: string; requests: number; recorded: boolean; slices: { failed: number } };
    expect(summary.fatal).toMatch(CORRUPT);
    expect(summary.recorded).toBe(false);
    expect(sync.stderr).not.toMatch(/VENUE_ETL_INTERNAL|could not record the failed slice/);
    const lines = sync.stderr.split('\n');
    const detected = lines.findIndex((line) => line.includes('VENUE_WAREHOUSE_CORRUPT'));
    expect(detected, describeRun(sync)).toBeGreaterThanOrEqual(0);
    const commitsBefore = lines.slice(0, detected).filter((line) => line === PAUSED).length;
    const commitsAfter = lines.slice(detected).filter((line) => line === PAUSED).length;
    expect(commitsAfter).toBe(0);
    const stop = lines.find((line) => line.includes('the run stops here'));
    expect(JSON.parse(stop ?? '{}').requests).toBe(summary.requests);

    // Every other command that reads the block says so too. (Reports, checks and the dashboard
    // read the daily rollup instead: the next case.)
    const others = {
      backfill: await fixture.cli(['backfill', '--from', startDate, '--to', yesterday]),
      export: await fixture.cli(['export']),
      sql: await fixture.cli(['sql', 'SELECT sum(value) FROM series_points']),
    };
    for (const result of Object.values(others)) expectCorrupt(result);
    reportFigure('corrupt-warehouse-block', {
      exit: sync.code,
      commitsBeforeDetection: commitsBefore,
      commitsAfterDetection: commitsAfter,
      failedSlices: summary.slices.failed,
      requestsAfterStop: summary.requests - Number(JSON.parse(stop ?? '{}').requests),
      otherCommandsSayingCorrupt: `${Object.keys(others).length} of ${Object.keys(others).length}`,
    });
  }, 240_000);

  it('a flipped byte in a block of the daily rollup: the reports, checks and dashboard that read it stop with VENUE_WAREHOUSE_CORRUPT', async () => {
    corruptAt((await firstBlockOffset('series_daily')) + 100);
    expectCorrupt(await fixture.cli(['report', 'daily-devices']));
    expectCorrupt(await fixture.cli(['check']));
    expectCorrupt(await fixture.cli(['dashboard', '--out', join(fixture.dir, 'dashboard.html')]));
  }, 240_000);

  it('a flipped byte in the header: every command refuses the file with VENUE_WAREHOUSE_CORRUPT', async () => {
    corruptAt(4096 + 100);
    const merge = fixture.writeConfig({}, join(fixture.dir, 'merge.config.json'));
    const commands: Record<string, readonly string[]> = {
      sync: ['sync'],
      backfill: ['backfill', '--from', startDate, '--to', yesterday],
      export: ['export'],
      status: ['status'],
      sql: ['sql', 'SELECT 1'],
      report: ['report', 'daily-devices'],
      check: ['check'],
      dashboard: ['dashboard', '--out', join(fixture.dir, 'dashboard.html')],
    };
    for (const args of Object.values(commands)) expectCorrupt(await fixture.cli(args));
    // merge-events, with a journal to merge (its config names the journal folder).
    const config = JSON.parse(readFileSync(merge, 'utf8')) as Record<string, unknown>;
    writeFileSync(merge, JSON.stringify({ ...config, receiver: { enabled: true, authorization: 'Basic x', journalDir } }));
    expectCorrupt(await fixture.cli(['merge-events'], { configPath: merge }));
  }, 240_000);
});
